// `npm run notices`: writes THIRD_PARTY_NOTICES.md from the recorded sources (scripts/lib/thirdPartyNotices.ts):
// each contract artifact's `source` (scripts/build-contracts.mjs), the account zoo's families
// (scripts/lib/zooContractSources.ts and zooDeployments.ts#zooSources) and the npm packages the console bundles.
// `--check` writes nothing and fails when the file is not what the sources give.
import { readFileSync, writeFileSync } from 'node:fs'

const { register } = await import('tsx/esm/api')
register()
const { NOTICES_FILE, renderThirdPartyNotices } = await import('./lib/thirdPartyNotices.ts')

const text = await renderThirdPartyNotices()
if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(NOTICES_FILE, 'utf8')
  } catch {}
  if (current !== text) {
    process.stderr.write('THIRD_PARTY_NOTICES.md is stale: run npm run notices\n')
    process.exit(1)
  }
} else {
  writeFileSync(NOTICES_FILE, text)
  process.stdout.write(`${NOTICES_FILE}\n`)
}
