// Writes the generated API documents (openapi.json, openrpc.json and the reference page index.html) into a folder,
// for the package to ship: `node scripts/writeApiDocs.mjs [outDir]` (default out/docs). They are what a service
// serves under /docs/ (scripts/lib/writeApiDocs.ts starts one without a chain to read them).
import path from 'node:path'

const { register } = await import('tsx/esm/api')
register()
const { writeApiDocs } = await import('./lib/writeApiDocs.ts')

const outDir = path.resolve(process.argv[2] ?? 'out/docs')
for (const file of await writeApiDocs(outDir)) process.stdout.write(`${file}\n`)
