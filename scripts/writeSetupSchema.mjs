// Writes the JSON Schema of the setup file (opstation serve --setup) generated from its zod schema.
// Usage: node --import tsx scripts/writeSetupSchema.mjs <outFile>   (the package ships it as setup.schema.json;
// docs/setup.schema.json is the committed copy, kept equal by test/unit/setup/setupJsonSchema.test.ts: after
// regenerating it, `npx biome format --write docs/setup.schema.json` puts it in the repository's JSON style)
import { writeFileSync } from 'node:fs'
import { generateSetupJsonSchema } from '../src/main/service/setup/setupJsonSchema.ts'

const outFile = process.argv[2]
if (!outFile) {
  process.stderr.write('usage: node --import tsx scripts/writeSetupSchema.mjs <outFile>\n')
  process.exit(2)
}
writeFileSync(outFile, `${JSON.stringify(generateSetupJsonSchema(), null, 2)}\n`)
