// Bundles the package's entries with esbuild, ES modules for Node 20+: dist/index.js (`import … from 'opstation'`),
// dist/prool.js (`opstation/prool`) and dist/cli.js (the `opstation` command in an installed package), the service
// they share in one chunk (dist/chunks/). Packages stay imports (`packages: 'external'`): they are the package's
// dependencies. The repository's own `opstation` runs out/cli instead (scripts/bundleCli.mjs), rebuilt as src/ changes.
import { rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const PACKAGE_BUNDLE_DIR = path.join(root, 'dist')

/** Returns esbuild's metafile (what each output imports). */
export async function bundlePackage({ outDir = PACKAGE_BUNDLE_DIR } = {}) {
  const { build } = await import('esbuild')
  rmSync(outDir, { recursive: true, force: true })
  const result = await build({
    entryPoints: {
      index: path.join(root, 'src', 'main', 'api', 'index.ts'),
      prool: path.join(root, 'src', 'main', 'api', 'prool.ts'),
      cli: path.join(root, 'src', 'main', 'cliMain.ts'),
    },
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'error',
  })
  return result.metafile
}
