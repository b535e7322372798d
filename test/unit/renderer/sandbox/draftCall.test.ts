import type { AbiFunction } from 'viem'
import { describe, expect, it } from 'vitest'
import { type CallForm, draftCall } from '../../../../src/renderer/src/features/sandbox/draftCall'

const ACCOUNT = '0x1111111111111111111111111111111111111111'
const VAULT = '0x2222222222222222222222222222222222222222'
const withdraw: AbiFunction = {
  type: 'function',
  name: 'withdraw',
  stateMutability: 'nonpayable',
  inputs: [
    { name: 'to', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  outputs: [],
}
/** A registered contract as the dashboard API lists it: its ABI as the JSON text the user pasted. */
const vault: NonNullable<CallForm['contract']> = {
  name: 'Vault',
  address: VAULT,
  abi: JSON.stringify([withdraw]),
  whitelistedMethods: ['withdraw'],
  methods: ['withdraw'],
}

const form = (change: Partial<CallForm>): CallForm => ({
  source: 'contract',
  account: ACCOUNT,
  valueEth: '0',
  to: ACCOUNT,
  rawData: '0x',
  contract: vault,
  fn: withdraw,
  args: {},
  ...change,
})

describe('the sandbox call form', () => {
  it('encodes a registered method with its typed arguments; an address argument left alone is the account itself', () => {
    const { draft, problems } = draftCall(form({ args: { '1': '7' }, valueEth: '0.5' }))
    expect(problems).toEqual([])
    expect(draft.call).toEqual({
      to: VAULT,
      value: '500000000000000000',
      data: `0xf3fef3a3${ACCOUNT.slice(2).padStart(64, '0')}${'7'.padStart(64, '0')}`,
    })
    expect(draft.summary).toBe('Vault.withdraw(…) · whitelisted')
  })

  it('says a method is not whitelisted, and names each bad argument by its field', () => {
    const notWhitelisted = draftCall(
      form({ contract: { ...vault, whitelistedMethods: [] }, args: { '1': '1' } }),
    )
    expect(notWhitelisted.draft.summary).toBe('Vault.withdraw(…) · NOT whitelisted')

    const bad = draftCall(form({ args: { '0': 'nope', '1': 'seven' } }))
    expect(bad.draft.call).toBeNull()
    expect(bad.problems.map((p) => p.field)).toEqual(['arg-0', 'arg-1'])
    expect(bad.draft.error).toBe(bad.problems[0]?.message)
  })

  it('raw callData: checks the address and the hex, and tells a call to the account itself', () => {
    expect(draftCall(form({ source: 'raw', rawData: '0x1234' })).draft).toEqual({
      call: { to: ACCOUNT, value: '0', data: '0x1234' },
      error: null,
      summary: `raw call to ${ACCOUNT} (the account itself)`,
    })
    const bad = draftCall(form({ source: 'raw', to: '0x12', rawData: '0x123', valueEth: 'lots' }))
    expect(bad.problems.map((p) => p.field)).toEqual(['value', 'to', 'data'])
    expect(bad.draft).toMatchObject({ call: null, error: expect.stringMatching(/^Value: /) })
  })

  it('without a registered contract asks to pick one (or to use raw callData)', () => {
    expect(draftCall(form({ contract: undefined, fn: undefined })).draft.error).toBe(
      'Pick a registered contract and method (or use raw callData).',
    )
  })
})
