import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateSetupJsonSchema } from '../../../src/main/service/setup/setupJsonSchema'

const COMMITTED = path.resolve(import.meta.dirname, '../../../docs/setup.schema.json')

describe('the setup file JSON Schema', () => {
  it('docs/setup.schema.json is what the zod schema generates now (regenerate: node --import tsx scripts/writeSetupSchema.mjs docs/setup.schema.json, then biome format)', () => {
    expect(JSON.parse(readFileSync(COMMITTED, 'utf8'))).toEqual(generateSetupJsonSchema())
  })

  it('describes the file for editors: draft 2020-12, the version, closed objects, the apiKey pattern', () => {
    const schema = generateSetupJsonSchema() as any
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(schema.required).toEqual(['version'])
    expect(schema.additionalProperties).toBe(false)
    expect(Object.keys(schema.properties)).toEqual([
      '$schema',
      'version',
      'chains',
      'dapps',
      'tokenPrices',
      'accounts',
    ])
    const dapp = schema.properties.dapps.items
    expect(Object.keys(dapp.properties)).toEqual([
      'name',
      'chainId',
      'apiKey',
      'active',
      'contracts',
      'webhooks',
      'policies',
      'gasTanksEth',
    ])
    expect(dapp.properties.apiKey.pattern).toBe(
      '^[A-Za-z0-9]{9}\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
    )
    expect(Object.keys(dapp.properties.gasTanksEth.properties)).toEqual(['0.6', '0.7', '0.8', '0.9'])
  })
})
