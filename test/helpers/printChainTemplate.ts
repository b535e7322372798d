import { buildChainTemplate } from './chainTemplate'

/**
 * `node --import tsx test/helpers/printChainTemplate.ts`: builds the deployed chain (chainTemplate.ts) and prints its
 * folder. `npm test` (scripts/test.mjs) builds it once for all its runs (integration, lifecycle, e2e), each of which
 * built its own; it removes the folder at the end.
 */
const template = await buildChainTemplate()
process.stdout.write(template.dir)
