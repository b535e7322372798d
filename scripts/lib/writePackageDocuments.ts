import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { generateSetupJsonSchema } from '../../src/main/service/setup/setupJsonSchema'
import { writeApiDocs } from './writeApiDocs'

/**
 * The package's generated documents, from the service's own code: `setup.schema.json` (the setup file's JSON Schema,
 * from its zod schema) and `docs/` (openapi.json, openrpc.json and the reference page, as a service serves them).
 * Returns the paths written.
 */
export async function writePackageDocuments(distDir: string): Promise<string[]> {
  const schema = path.join(distDir, 'setup.schema.json')
  writeFileSync(schema, `${JSON.stringify(generateSetupJsonSchema(), null, 2)}\n`)
  return [schema, ...(await writeApiDocs(path.join(distDir, 'docs')))]
}
