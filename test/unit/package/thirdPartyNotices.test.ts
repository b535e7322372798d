import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { LICENCE_TEXTS, NOTICES_FILE, renderThirdPartyNotices } from '../../../scripts/lib/thirdPartyNotices'
import { zooDeployments } from '../../../src/main/service/chain/accountZoo/zooDeployments'
import * as artifacts from '../../../src/main/service/chain/artifacts'
import * as artifactsV09 from '../../../src/main/service/chain/artifacts/v09'

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..')
const notices = readFileSync(NOTICES_FILE, 'utf8')
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))

describe('THIRD_PARTY_NOTICES.md', () => {
  it('is what `npm run notices` writes from the recorded sources (not stale)', async () => {
    expect(await renderThirdPartyNotices(), 'THIRD_PARTY_NOTICES.md is stale: run npm run notices').toBe(
      notices,
    )
  }, 60_000)

  it('names every embedded contract artifact, with a licence and a source location for each of its origins', () => {
    for (const exportName of [...Object.keys(artifacts), ...Object.keys(artifactsV09)]) {
      const name = exportName.replace(/Artifact$/, '')
      const section = notices.split(`### \`${name}\`\n`)[1]?.split('\n### ')[0]
      expect(section, `${name} is not in THIRD_PARTY_NOTICES.md`).toBeDefined()
      const origins = section!.split('\n').filter((line) => line.startsWith('- '))
      expect(origins.length, name).toBeGreaterThan(0)
      for (const origin of origins)
        expect(origin, name).toMatch(/^- [\w.+-]+(, [\w.+-]+)*: .*(https:\/\/|`contracts\/`)/)
    }
  })

  it('names every contract of the account zoo', () => {
    for (const deployment of zooDeployments) {
      for (const contract of deployment.contracts) {
        expect(notices, `${contract.name} (${deployment.source})`).toContain(`\`${contract.name}\``)
      }
    }
  })

  it('ships in the package with LICENSE (MIT, Opstation contributors) and the licence texts it points to', () => {
    expect(manifest.files).toEqual(
      expect.arrayContaining(['LICENSE', 'THIRD_PARTY_NOTICES.md', 'licenses/', 'contracts/**/*.sol']),
    )
    for (const file of LICENCE_TEXTS)
      expect(readFileSync(path.join(repoRoot, file), 'utf8')).toMatch(/License/)
    expect(readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) 2026 Opstation contributors\n/,
    )
    expect(manifest.license).toBe('MIT')
    for (const field of ['private', 'homepage', 'author', 'repository'])
      expect(manifest).not.toHaveProperty(field)
  })
})
