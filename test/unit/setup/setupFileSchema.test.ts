import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { OpstationSetup } from '../../../src/main/api'
import { InvalidSetupError } from '../../../src/main/service/setup/InvalidSetupError'
import { parseSetup, readSetup } from '../../../src/main/service/setup/readSetup'
import type { SetupFileInput } from '../../../src/main/service/setup/setupFileSchema'
import { makeTempDir } from '../../helpers/makeTempDir'

const COUNTER_ABI = [
  { type: 'function', name: 'increment', inputs: [], outputs: [], stateMutability: 'nonpayable' },
  { type: 'function', name: 'reset', inputs: [], outputs: [], stateMutability: 'nonpayable' },
  { type: 'function', name: 'count', inputs: [], outputs: [{ type: 'uint256' }], stateMutability: 'view' },
]
const API_KEY = 'Abc123XyZ.1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d'
const ADDRESS = '0x1111111111111111111111111111111111111111'

/** The message a setup gives, read as the file `setup.json`. */
function messageOf(input: unknown): string {
  try {
    parseSetup(input, 'setup.json')
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidSetupError)
    return (err as Error).message
  }
  throw new Error('the setup parsed')
}

const withDapp = (dapp: Record<string, unknown>) => ({ version: 1, dapps: [{ name: 'shop', ...dapp }] })

describe('the setup file schema', () => {
  it('reads a full setup: amounts as decimal strings, the ABI as its text, lists left out as empty', () => {
    const setup = parseSetup({
      $schema: './setup.schema.json',
      version: 1,
      dapps: [
        {
          name: 'shop',
          apiKey: API_KEY,
          active: true,
          contracts: [
            { name: 'Counter', address: ADDRESS, abi: COUNTER_ABI, whitelistedMethods: ['increment'] },
          ],
          webhooks: [{ webhookUrl: 'http://127.0.0.1:9/sponsor', requestType: 'POST' }],
          policies: {
            limits: [
              {
                type: 'SMART_ACCOUNT',
                thresholdType: 'COUNT',
                threshold: 5,
                cycleDuration: { value: 1, unit: 'day' },
              },
            ],
            validAfter: null,
            validUntil: 4_102_444_800,
            premiumPercentage: 7.5,
          },
          gasTanksEth: { '0.6': 5, '0.7': '0.25' },
        },
      ],
      tokenPrices: [{ tokenAddress: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', usdPrice: 2500 }],
      accounts: [{ address: ADDRESS, balanceEth: '100' }],
    })
    expect(setup.dapps[0]).toMatchObject({
      contracts: [{ abi: JSON.stringify(COUNTER_ABI), whitelistedMethods: ['increment'] }],
      policies: { limits: [{ threshold: '5', active: true }] },
      gasTanksEth: { '0.6': '5', '0.7': '0.25' },
    })
    expect(setup.tokenPrices[0]?.usdPrice).toBe('2500')
    expect(parseSetup({ version: 1 })).toEqual({ version: 1, dapps: [], tokenPrices: [], accounts: [] })
  })

  it.each([
    [{}, 'setup.json: version is required'],
    [{ version: 2 }, 'setup.json: version must be 1 (the setup file version this Opstation reads)'],
    [[], 'setup.json must be an object'],
    [{ version: 1, dapp: [] }, 'setup.json has an unknown field "dapp"'],
    [
      withDapp({ contracts: [{ name: 'C', address: '0x12', abi: [] }] }),
      'setup.json: dapps[0].contracts[0].address must be a 0x address (0x followed by 40 hex digits)',
    ],
    [
      withDapp({ apiKey: 'my-key' }),
      'setup.json: dapps[0].apiKey must look like a generated apiKey: 9 letters or digits, a dot and a lowercase UUID (e.g. nJPK7B3ru.dd7f7861-190d-41bd-af80-6877f74b8f44)',
    ],
    [withDapp({ name: ' ' }), 'setup.json: dapps[0].name must not be empty'],
    [withDapp({ webhook: [] }), 'setup.json: dapps[0] has an unknown field "webhook"'],
    [
      withDapp({
        contracts: [{ name: 'C', address: ADDRESS, abi: COUNTER_ABI, whitelistedMethods: ['count'] }],
      }),
      'setup.json: dapps[0].contracts[0].whitelistedMethods names methods that are not callable functions of the ABI: count (callable: increment, reset)',
    ],
    [
      withDapp({ contracts: [{ name: 'C', address: ADDRESS, abi: '[{"type":' }] }),
      'setup.json: dapps[0].contracts[0].abi is not a valid ABI (must be a stringified JSON ABI array (it does not parse as JSON))',
    ],
    [
      withDapp({ webhooks: [{ webhookUrl: 'ftp://example.com' }] }),
      'setup.json: dapps[0].webhooks[0].webhookUrl must be an http(s) URL',
    ],
    [
      withDapp({ policies: { validAfter: 200, validUntil: 100 } }),
      'setup.json: dapps[0].policies.validAfter must be before validUntil',
    ],
    [
      withDapp({ policies: { blockWindow: { validForBlocks: 1 } } }),
      'setup.json: dapps[0].policies.blockWindow.validForBlocks must be at least 2 (the bundler admits an operation only while it stays valid for 2 more blocks)',
    ],
    [
      withDapp({ policies: { blockWindow: { validForBlocks: 5, validAfterBlock: 9, validUntilBlock: 9 } } }),
      'setup.json: dapps[0].policies.blockWindow.validAfterBlock must be before validUntilBlock',
    ],
    [
      withDapp({
        policies: {
          limits: [
            {
              type: 'PAYMASTER',
              thresholdType: 'COUNT',
              threshold: '0',
              cycleDuration: { value: 1, unit: 'day' },
            },
          ],
        },
      }),
      'setup.json: dapps[0].policies.limits[0].threshold must be a positive whole number (a count, or wei as a decimal string)',
    ],
    [
      withDapp({ gasTanksEth: { '1.0': '1' } }),
      'setup.json: dapps[0].gasTanksEth has an unknown field "1.0"',
    ],
    [
      withDapp({ gasTanksEth: { '0.6': '1.5 ETH' } }),
      'setup.json: dapps[0].gasTanksEth["0.6"] must be an amount of ETH with at most 12 digits before the point and 18 after it',
    ],
    [
      withDapp({
        policies: {
          limits: [
            {
              type: 'PAYMASTER',
              thresholdType: 'COUNT',
              threshold: 'ten',
              cycleDuration: { value: 1, unit: 'day' },
            },
          ],
        },
      }),
      'setup.json: dapps[0].policies.limits[0].threshold must be a positive whole number (a count, or wei as a decimal string)',
    ],
    [
      withDapp({ contracts: [{ name: 'C', address: ADDRESS, abi: ['increment()'] }] }),
      'setup.json: dapps[0].contracts[0].abi must be an ABI: a JSON array of ABI items, or that array as a string',
    ],
    [
      { version: 1, dapps: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] },
      'setup.json: dapps[2].name is the same as dapps[0].name',
    ],
    [
      {
        version: 1,
        accounts: [
          { address: ADDRESS, balanceEth: '1' },
          { address: ADDRESS.toUpperCase().replace('0X', '0x'), balanceEth: '2' },
        ],
      },
      'setup.json: accounts[1].address is the same as accounts[0].address',
    ],
    [
      { version: 1, tokenPrices: [{ tokenAddress: ADDRESS, usdPrice: '-1' }] },
      'setup.json: tokenPrices[0].usdPrice must be a positive decimal number with at most 13 digits before the point and 18 after it',
    ],
  ])('refuses %j with one message naming the path: %s', (input, message) => {
    expect(messageOf(input)).toBe(message)
  })

  it('reads the chains (an id alone, a fork, a node) and the chain of each dApp and account', () => {
    const setup = parseSetup(
      {
        version: 1,
        chains: [
          31337,
          { chainId: 8453, forkUrl: 'https://base.example' },
          { chainId: 1337, rpcUrl: 'ws://n' },
        ],
        dapps: [
          { name: 'shop', chainId: 31337 },
          { name: 'shop', chainId: 8453 },
        ],
        accounts: [
          { address: ADDRESS, balanceEth: '1', chainId: 31337 },
          { address: ADDRESS, balanceEth: '2', chainId: 8453 },
        ],
      },
      'setup.json',
    )
    expect(setup.chains).toEqual([
      { chainId: 31337 },
      { chainId: 8453, forkUrl: 'https://base.example' },
      { chainId: 1337, rpcUrl: 'ws://n' },
    ])
    expect(setup.dapps.map((d) => [d.name, d.chainId])).toEqual([
      ['shop', 31337],
      ['shop', 8453],
    ])
    expect(setup.accounts.map((a) => a.chainId)).toEqual([31337, 8453])
  })

  it.each([
    [{ version: 1, chains: [0] }, 'setup.json: chains[0] must be a chain id (a whole number from 1)'],
    [
      { version: 1, chains: [5, { chainId: 5 }] },
      'setup.json: chains[1].chainId is the same as chains[0].chainId',
    ],
    [
      { version: 1, chains: [{ chainId: 5, forkUrl: 'https://a', rpcUrl: 'http://b' }] },
      'setup.json: chains[0].rpcUrl cannot go with forkUrl (a chain is one or the other)',
    ],
    [
      { version: 1, chains: [{ chainId: 5, forkUrl: 'ftp://a' }] },
      'setup.json: chains[0].forkUrl must be an http(s) URL',
    ],
    [withDapp({ chainId: 1.5 }), 'setup.json: dapps[0].chainId must be a chain id (a whole number from 1)'],
    [
      {
        version: 1,
        dapps: [
          { name: 'a', chainId: 5 },
          { name: 'a', chainId: 5 },
        ],
      },
      'setup.json: dapps[1].name is the same as dapps[0].name',
    ],
  ])('refuses chains %j: %s', (input, message) => {
    expect(messageOf(input)).toBe(message)
  })

  it("the README's example file reads as written", async () => {
    const readme = await readFile(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8')
    const section = readme.split('\n## Reproducible setups\n')[1]?.split('\n## ')[0] ?? ''
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1]
    expect(example).toBeDefined()
    expect(parseSetup(JSON.parse(example!), 'README')).toMatchObject({
      dapps: [{ name: 'shop', gasTanksEth: { '0.6': '10', '0.7': '25' } }],
    })
  })

  it('reads a file, and names it when it is missing or not JSON', async () => {
    const dir = await makeTempDir('opstation-setup-')
    const file = path.join(dir, 'setup.json')
    await writeFile(file, JSON.stringify({ version: 1, dapps: [{ name: 'shop' }] }))
    expect(await readSetup(file)).toMatchObject({ label: file, setup: { dapps: [{ name: 'shop' }] } })
    await expect(readSetup(path.join(dir, 'nope.json'))).rejects.toThrow(
      `${path.join(dir, 'nope.json')} cannot be read (no such file)`,
    )
    await writeFile(file, '{"version": 1,')
    await expect(readSetup(file)).rejects.toThrow(new RegExp(`^${file} is not valid JSON \\(`))
    await expect(readSetup({ version: 1, dapps: [{}] })).rejects.toThrow('setup: dapps[0].name is required')
  })
})

// The public type of the `setup` option (api/types.ts, shipped on its own) is the file as written: checked here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const publicTypeIsTheFile: Same<OpstationSetup, SetupFileInput> = true
void publicTypeIsTheFile
