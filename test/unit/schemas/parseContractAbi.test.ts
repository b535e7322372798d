import { toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { assertMethodsInAbi, parseContractAbi } from '../../../src/main/service/schemas/parseContractAbi'

const abi = [
  { type: 'constructor', inputs: [] },
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [{ type: 'address' }, { type: 'uint256' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'safeMint',
    stateMutability: 'payable',
    inputs: [{ type: 'address' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'safeMint',
    stateMutability: 'nonpayable',
    inputs: [{ type: 'address' }, { type: 'bytes' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  { type: 'function', name: 'legacyRead', constant: true, inputs: [], outputs: [] },
  { type: 'event', name: 'Transfer', inputs: [] },
]

describe('parseContractAbi', () => {
  it('lists callable functions once each and keeps every overload selector', () => {
    const parsed = parseContractAbi(JSON.stringify(abi))
    expect(parsed.methods).toEqual(['transfer', 'safeMint'])
    expect(parsed.selectorsByMethod.get('transfer')).toEqual(['0xa9059cbb'])
    expect(parsed.selectorsByMethod.get('safeMint')).toEqual([
      toFunctionSelector('function safeMint(address)'),
      toFunctionSelector('function safeMint(address,bytes)'),
    ])
  })

  it('names every function by selector, view and pure ones included, the first overload name winning', () => {
    const parsed = parseContractAbi(JSON.stringify(abi))
    expect(parsed.namesBySelector.get('0xa9059cbb')).toBe('transfer')
    expect(parsed.namesBySelector.get(toFunctionSelector('function safeMint(address,bytes)'))).toBe(
      'safeMint',
    )
    expect(parsed.namesBySelector.get(toFunctionSelector('function balanceOf(address)'))).toBe('balanceOf')
    expect(parsed.namesBySelector.get(toFunctionSelector('function legacyRead()'))).toBe('legacyRead')
    expect(parsed.namesBySelector.size).toBe(5)
  })

  it('rejects text that is not a JSON ABI array', () => {
    expect(() => parseContractAbi('nope')).toThrow(
      'abi must be a stringified JSON ABI array (it does not parse as JSON)',
    )
    expect(() => parseContractAbi('{}')).toThrow('abi must be a stringified JSON ABI array')
    expect(() => parseContractAbi('[1]')).toThrow('abi entry 0 is not an ABI item')
    expect(() => parseContractAbi('[{"type":"function"}]')).toThrow(
      'abi entry 0 is a function without a name',
    )
  })

  it('rejects whitelisted methods that are view functions or absent', () => {
    const parsed = parseContractAbi(JSON.stringify(abi))
    expect(() => assertMethodsInAbi(['transfer'], parsed)).not.toThrow()
    expect(() => assertMethodsInAbi(['balanceOf', 'burn'], parsed)).toThrow(
      'whitelistedMethods contains methods that are not callable functions of the ABI: balanceOf, burn (callable: transfer, safeMint)',
    )
  })
})
