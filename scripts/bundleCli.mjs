// Bundles the headless entry (src/main/cliMain.ts) into out/cli/opstation.cjs, so `opstation serve` starts
// without transpiling TypeScript at run time (about 1 s instead of 3 s). In the repository bin/opstation.js rebuilds
// it when src/ (or the installed packages) is newer. Written to a temp file and renamed, so concurrent starts never
// read a partial bundle.
// The packages it uses are bundled in too, but for those that read files of their own at run time (below): one file
// to load rather than some 1,000 modules to resolve and compile. That halved the CPU a start takes before it serves
// (`--version`: 1.1 s to 0.55 s; `serve` to its ready line: 2.0 to 1.35 CPU-s), and the test suite starts some 200.
// It is CommonJS so that bin/opstation.js can load it with V8's code cache (scripts/lib/requireWithCodeCache.cjs):
// compiling its 9 MB took a quarter of a start's CPU, and Node 20 keeps no code cache for an ES module.
// The npm package is built apart (scripts/buildPackage.mjs: dist/cli.js, its packages left to the user's install).
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { newestMtime } from './newestMtime.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const CLI_BUNDLE = path.join(root, 'out', 'cli', 'opstation.cjs')

/**
 * Packages left out of the bundle, loaded from node_modules: those that read their own files at run time
 * (tiny-secp256k1's WebAssembly, the anvil binary's package, pino's transport worker) and those the CLI never loads.
 */
const EXTERNAL = ['tiny-secp256k1', '@foundry-rs/*', 'pino', 'thread-stream', 'electron', 'esbuild']

/** npm rewrites it at every install: the bundled packages' versions are those installed before it. */
const INSTALLED = path.join(root, 'node_modules', '.package-lock.json')

export function isCliBundleFresh() {
  if (!existsSync(CLI_BUNDLE)) return false
  const sources = Math.max(
    newestMtime(path.join(root, 'src', 'main')),
    newestMtime(path.join(root, 'src', 'shared')),
    existsSync(INSTALLED) ? statSync(INSTALLED).mtimeMs : 0,
  )
  return statSync(CLI_BUNDLE).mtimeMs >= sources
}

/** Removes the code caches of earlier builds (each is named after its build's id). */
function removeOldCodeCaches(buildId) {
  const dir = path.dirname(CLI_BUNDLE)
  for (const name of readdirSync(dir))
    if (name.endsWith('.v8cache') && !name.includes(`.${buildId}.`))
      rmSync(path.join(dir, name), { force: true })
}

/** Returns esbuild's metafile (what the bundle imports). */
export async function bundleCli() {
  const { build } = await import('esbuild')
  const buildId = randomUUID()
  const result = await build({
    entryPoints: [path.join(root, 'src', 'main', 'cliMain.ts')],
    outfile: CLI_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    // The sources' import.meta.url (the package root, anvil's package) is the bundle's own file URL.
    define: { 'import.meta.url': '__opstationBundleUrl' },
    // The build id names the bundle's code cache (scripts/lib/requireWithCodeCache.cjs).
    banner: {
      js: `// build ${buildId}\nconst __opstationBundleUrl = require('node:url').pathToFileURL(__filename).href;`,
    },
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
  removeOldCodeCaches(buildId)
  return result.metafile
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundleCli()
