// `prepack`: builds everything the npm package runs, so an installed package compiles nothing at run time:
//   dist/index.js, prool.js   the programmatic API and the prool instance, and dist/cli.js, the `opstation`
//   dist/cli.js               command; ES modules sharing the service in one chunk (scripts/bundlePackage.mjs)
//   dist/*.d.ts               their types (scripts/writeApiTypes.mjs)
//   out/renderer/             the console the service serves at /console/ (vite; rebuilt when its sources changed)
//   dist/setup.schema.json    the setup file's JSON Schema
//   dist/docs/                the generated API documents: openapi.json, openrpc.json and the reference page
// The contract artifacts and the account zoo's deployment data are TypeScript modules, so they are inside the
// bundles. Then it checks that every package the bundles import is a dependency and every dependency is imported.
// Progress goes to stderr (npm pack --json keeps stdout).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildConsoleIfStale } from './buildConsoleIfStale.mjs'
import { bundlePackage } from './bundlePackage.mjs'
import { checkBundleImports } from './checkBundleImports.mjs'
import { CONSOLE_DIR } from './publishConsole.mjs'
import { writeApiTypes } from './writeApiTypes.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function say(message) {
  process.stderr.write(`buildPackage: ${message}\n`)
}

async function step(label, run) {
  const started = performance.now()
  const result = await run()
  say(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  return result
}

/**
 * Leaves in out/renderer only the current build's files: publishConsole keeps the previous build's assets for
 * pages a running service loaded before, which the package does not need.
 */
function pruneConsole() {
  const manifest = path.join(CONSOLE_DIR, '.build-files.json')
  if (!existsSync(manifest)) return
  const current = new Set(JSON.parse(readFileSync(manifest, 'utf8')))
  const walk = (dir, prefix = '') =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name
      return entry.isDirectory() ? walk(path.join(dir, entry.name), relative) : [relative]
    })
  for (const file of walk(CONSOLE_DIR))
    if (!current.has(file) && !path.basename(file).startsWith('.')) rmSync(path.join(CONSOLE_DIR, file))
}

/**
 * The generated documents (scripts/lib/writePackageDocuments.ts), written by the service's own code bundled with
 * esbuild into a temporary folder (one pass, as the package's bundles are) and run with node: about 2.5 CPU-s, where
 * `node --import tsx` of the two writers took 9 (tsx compiles each of the service's modules through its loader).
 */
async function writeDocuments() {
  const { build } = await import('esbuild')
  // In the repository, where the bundle's package imports resolve (its node_modules).
  mkdirSync(path.join(root, 'out'), { recursive: true })
  const temp = mkdtempSync(path.join(root, 'out', 'package-documents-'))
  try {
    const script = path.join(temp, 'writePackageDocuments.mjs')
    await build({
      stdin: {
        contents: [
          "import { writePackageDocuments } from './scripts/lib/writePackageDocuments.ts'",
          'for (const file of await writePackageDocuments(process.argv[2])) process.stderr.write(`  ${file}\\n`)',
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    })
    const result = spawnSync(process.execPath, [script, path.join(root, 'dist')], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    })
    if (result.status !== 0) throw new Error(`writing the documents failed (exit ${result.status})`)
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

export async function buildPackage() {
  const started = performance.now()
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  const bundles = await step('bundles → dist/ (index.js, prool.js, cli.js)', () => bundlePackage())
  const types = await step('API types → dist/*.d.ts', () => writeApiTypes())
  say(`  ${types.join(', ')}`)
  const console = await step('console → out/renderer/', () => buildConsoleIfStale())
  if (console === 'failed') throw new Error('the console build failed')
  pruneConsole()
  await step('documents → dist/', () => writeDocuments())
  const imports = checkBundleImports({ manifest, metafiles: [bundles], peerImporters: ['dist/prool.js'] })
  say(`bundle imports match dependencies: ${[...new Set(Object.values(imports).flat())].sort().join(', ')}`)
  say(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildPackage().catch((err) => {
    say(`failed: ${err.message}`)
    process.exit(1)
  })
}
