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
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildConsoleIfStale } from './buildConsoleIfStale.mjs'
import { bundlePackage } from './bundlePackage.mjs'
import { checkBundleImports } from './checkBundleImports.mjs'
import { CONSOLE_DIR } from './publishConsole.mjs'
import { writeApiTypes } from './writeApiTypes.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The generated documents: `node --import tsx scripts/<script> <out>` (they read the TypeScript sources). */
const DOCUMENTS = [
  { script: 'writeSetupSchema.mjs', out: 'dist/setup.schema.json' },
  { script: 'writeApiDocs.mjs', out: 'dist/docs' },
]

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

function writeDocuments() {
  for (const { script, out } of DOCUMENTS) {
    const file = path.join(root, 'scripts', script)
    const result = spawnSync(process.execPath, ['--import', 'tsx', file, path.join(root, out)], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    })
    if (result.status !== 0) throw new Error(`${script} failed (exit ${result.status})`)
    say(`  ${out}`)
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
