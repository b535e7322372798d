// Bundles the headless entry (src/main/cliMain.ts) into out/cli/opstation.mjs, so `opstation serve` starts
// without transpiling TypeScript at run time (about 1 s instead of 3 s). In the repository bin/opstation.js rebuilds
// it when src/ is newer; the package is built with it at pack time (scripts/buildPackage.mjs) and runs it as it is.
// Written to a temp file and renamed, so concurrent starts never read a partial bundle.
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { newestMtime } from './newestMtime.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const CLI_BUNDLE = path.join(root, 'out', 'cli', 'opstation.mjs')

export function isCliBundleFresh() {
  if (!existsSync(CLI_BUNDLE)) return false
  const sources = Math.max(
    newestMtime(path.join(root, 'src', 'main')),
    newestMtime(path.join(root, 'src', 'shared')),
  )
  return statSync(CLI_BUNDLE).mtimeMs >= sources
}

/** Returns esbuild's metafile (what the bundle imports). */
export async function bundleCli() {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [path.join(root, 'src', 'main', 'cliMain.ts')],
    outfile: CLI_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'error',
  })
  mkdirSync(path.dirname(CLI_BUNDLE), { recursive: true })
  for (const file of result.outputFiles) {
    const tmp = `${file.path}.${process.pid}.tmp`
    writeFileSync(tmp, file.contents)
    renameSync(tmp, file.path)
  }
  return result.metafile
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundleCli()
