import { toNexusSmartAccount } from 'permissionless/accounts'
import { createClient, custom, encodeFunctionData, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { anvil } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { checkWhitelist } from '../../../src/main/service/policy/checkWhitelist'
import { decodeCallData } from '../../../src/main/service/policy/decodeCallData'
import type { SmartContract } from '../../../src/shared/api/smartContracts'

const counterAbi = [
  { type: 'function', name: 'increment', inputs: [], outputs: [], stateMutability: 'nonpayable' },
  {
    type: 'function',
    name: 'setNumber',
    inputs: [{ name: 'n', type: 'uint256' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  { type: 'function', name: 'number', inputs: [], outputs: [{ type: 'uint256' }], stateMutability: 'view' },
] as const
const counter = '0x1111111111111111111111111111111111111111'
const stranger = '0x2222222222222222222222222222222222222222'
const contract = (whitelistedMethods: string[]): SmartContract => ({
  id: 'c1',
  dappId: 'd1',
  name: 'Counter',
  address: counter,
  abi: JSON.stringify(counterAbi),
  whitelistedMethods,
  methods: ['increment', 'setNumber'],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
})
const account = parseAbi([
  'function execute_ncC(address dest, uint256 value, bytes func)',
  'function executeBatch_y6U(address[] dest, uint256[] value, bytes[] func)',
])
const increment = encodeFunctionData({ abi: counterAbi, functionName: 'increment' })
const setNumber = encodeFunctionData({ abi: counterAbi, functionName: 'setNumber', args: [5n] })
const single = (to: `0x${string}`, data: `0x${string}`, value = 0n) =>
  decodeCallData(encodeFunctionData({ abi: account, functionName: 'execute_ncC', args: [to, value, data] }))

describe('checkWhitelist', () => {
  it('sponsors everything when the dApp has registered no contracts (Biconomy rule)', () => {
    expect(checkWhitelist(single(stranger, '0xdeadbeef'), [])).toMatchObject({ outcome: 'pass' })
    expect(checkWhitelist(decodeCallData('0x99999999'), [])).toMatchObject({ outcome: 'pass' })
  })

  it('passes a call to a whitelisted method of a registered contract, matched by ABI selector', () => {
    expect(checkWhitelist(single(counter, increment), [contract(['increment'])])).toEqual({
      outcome: 'pass',
      detail: `Counter.increment (${counter}) is whitelisted`,
    })
  })

  it('fails a call to an unregistered contract with Biconomy\'s "Smart contract data not found" phrase', () => {
    const verdict = checkWhitelist(single(stranger, increment), [contract(['increment'])])
    expect(verdict.outcome).toBe('fail')
    expect(verdict.detail).toBe(
      `Smart contract data not found: ${stranger} is not a registered smart contract of this dApp`,
    )
  })

  it('fails a method of a registered contract that is not whitelisted, named from the ABI with its selector', () => {
    expect(checkWhitelist(single(counter, setNumber), [contract(['increment'])]).detail).toBe(
      `setNumber (0x3fb5c1cb) is not a whitelisted method of Counter at ${counter} (whitelisted: increment)`,
    )
    // A view function is named too (it can never be whitelisted).
    const number = encodeFunctionData({ abi: counterAbi, functionName: 'number' })
    expect(checkWhitelist(single(counter, number), [contract(['increment'])]).detail).toBe(
      `number (0x8381f58a) is not a whitelisted method of Counter at ${counter} (whitelisted: increment)`,
    )
    expect(checkWhitelist(single(counter, setNumber), [contract([])]).detail).toBe(
      `setNumber (0x3fb5c1cb) is not a whitelisted method of Counter at ${counter} (whitelisted: none)`,
    )
  })

  it('keeps the bare selector for a call the ABI does not know, and fails a plain value transfer', () => {
    expect(checkWhitelist(single(counter, '0xdeadbeef'), [contract(['increment'])]).detail).toBe(
      `selector 0xdeadbeef (not in its ABI) is not a whitelisted method of Counter at ${counter} (whitelisted: increment)`,
    )
    expect(checkWhitelist(single(counter, '0x', 7n), [contract(['increment'])]).detail).toBe(
      `Counter (${counter}) receives a plain transfer of 7 wei, not a whitelisted method`,
    )
  })

  it('requires every call of a batch to pass and names the failing one', () => {
    const batch = decodeCallData(
      encodeFunctionData({
        abi: account,
        functionName: 'executeBatch_y6U',
        args: [
          [counter, stranger],
          [0n, 0n],
          [increment, increment],
        ],
      }),
    )
    const verdict = checkWhitelist(batch, [contract(['increment'])])
    expect(verdict.outcome).toBe('fail')
    expect(verdict.detail).toMatch(/^call 1: Smart contract data not found/)
  })

  it('checks every call of an ERC-7579 batch (Nexus, as permissionless encodes it) and names the failing one', async () => {
    // Offline: with an explicit address the account makes no RPC call to encode calls.
    const client = createClient({
      chain: anvil,
      transport: custom({
        async request({ method }) {
          throw new Error(`offline test client: ${method} is not served`)
        },
      }),
    })
    const nexus = await toNexusSmartAccount({
      client,
      owners: [privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')],
      version: '1.0.0',
      address: '0x9A676e781A523b5d0C0e43731313A708CB607508',
    })
    const contracts = [contract(['increment', 'setNumber'])]
    const allowed = await nexus.encodeCalls([
      { to: counter, data: increment },
      { to: counter, data: setNumber },
    ])
    expect(checkWhitelist(decodeCallData(allowed), contracts)).toEqual({
      outcome: 'pass',
      detail: `call 0: Counter.increment (${counter}) is whitelisted; call 1: Counter.setNumber (${counter}) is whitelisted`,
    })
    const strays = await nexus.encodeCalls([
      { to: counter, data: increment },
      { to: stranger, value: 1n, data: increment },
    ])
    expect(checkWhitelist(decodeCallData(strays), contracts)).toEqual({
      outcome: 'fail',
      detail: `call 1: Smart contract data not found: ${stranger} is not a registered smart contract of this dApp`,
    })
  })

  it('sponsors a wallet deployment but not an empty call or callData it cannot decode', () => {
    const contracts = [contract(['increment'])]
    expect(
      checkWhitelist(decodeCallData('0x', '0x000000a56Aaca3e9a4C479ea6b6CD0DbcB6634F5'), contracts).outcome,
    ).toBe('pass')
    expect(checkWhitelist(decodeCallData('0x', '0x'), contracts).outcome).toBe('fail')
    expect(checkWhitelist(decodeCallData('0x12345678'), contracts)).toEqual({
      outcome: 'fail',
      detail:
        'callData not understood: selector 0x12345678 is not an account execute function this paymaster decodes',
    })
  })

  it('follows whitelist edits (the selector cache is keyed on the contract record)', () => {
    const registered = contract(['increment'])
    expect(checkWhitelist(single(counter, setNumber), [registered]).outcome).toBe('fail')
    registered.whitelistedMethods = ['increment', 'setNumber']
    registered.updatedAt = '2026-01-02T00:00:00.000Z'
    expect(checkWhitelist(single(counter, setNumber), [registered]).outcome).toBe('pass')
  })
})
