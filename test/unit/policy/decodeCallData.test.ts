import {
  encodeAbiParameters,
  encodeFunctionData,
  parseAbi,
  parseAbiParameters,
  toFunctionSelector,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { ACCOUNT_FUNCTIONS, decodeCallData } from '../../../src/main/service/policy/decodeCallData'

const account = parseAbi([
  'function execute_ncC(address dest, uint256 value, bytes func)',
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch_y6U(address[] dest, uint256[] value, bytes[] func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
])
const simpleAccount = parseAbi(['function executeBatch(address[] dest, bytes[] func)'])
const erc20 = parseAbi([
  'function transfer(address to, uint256 amount)',
  'function approve(address, uint256)',
])
const token = '0x752fAc4b6F12E83c8be5571d2CDE2c00aEe1855C'
const other = '0x47DFa9a0C1E2711269876356b5CdC180450d6776'
const transfer = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [other, 5n] })

describe('decodeCallData', () => {
  it('knows the selectors of biconomy-protocol.md section 5 and SimpleAccount', () => {
    for (const [selector, fn] of Object.entries(ACCOUNT_FUNCTIONS)) {
      expect(toFunctionSelector(fn.name)).toBe(selector)
    }
    expect(Object.keys(ACCOUNT_FUNCTIONS)).toEqual(
      expect.arrayContaining(['0x0000189a', '0xb61d27f6', '0x00004680', '0x47e1da2a', '0x18dfb3c7']),
    )
  })

  it('decodes the SDK single call (execute_ncC) into its target, value and method selector', () => {
    const callData = encodeFunctionData({
      abi: account,
      functionName: 'execute_ncC',
      args: [token, 0n, transfer],
    })
    expect(decodeCallData(callData)).toEqual({
      kind: 'calls',
      accountFunction: 'execute_ncC(address,uint256,bytes)',
      calls: [{ to: token, value: 0n, data: transfer, selector: '0xa9059cbb' }],
    })
  })

  it('reads execute(address,uint256,bytes) off its layout exactly as the ABI decoder does, for any data length and value', () => {
    for (const data of [
      '0x',
      '0xa9059cbb',
      transfer,
      `0x${'ab'.repeat(33)}`,
      `0x${'00'.repeat(64)}`,
    ] as const) {
      for (const value of [0n, 1n, 2n ** 255n + 7n]) {
        const callData = encodeFunctionData({
          abi: account,
          functionName: 'execute',
          args: [other, value, data],
        })
        expect(decodeCallData(callData)).toEqual({
          kind: 'calls',
          accountFunction: 'execute(address,uint256,bytes)',
          calls: [{ to: other, value, data, selector: data.length >= 10 ? data.slice(0, 10) : null }],
        })
      }
    }
    // A non-standard offset still decodes (through the ABI decoder).
    const shifted =
      `0xb61d27f6${encodeAbiParameters(parseAbiParameters('address, uint256, uint256, uint256, uint256, bytes4'), [other, 3n, 0x80n, 0n, 4n, '0xdeadbeef']).slice(2)}` as const
    expect(decodeCallData(shifted)).toMatchObject({
      kind: 'calls',
      calls: [{ to: other, value: 3n, data: '0xdeadbeef' }],
    })
    // A length past the end is reported, not read out of bounds.
    const cut = encodeFunctionData({
      abi: account,
      functionName: 'execute',
      args: [other, 0n, transfer],
    }).slice(0, -64) as `0x${string}`
    expect(decodeCallData(cut)).toMatchObject({ kind: 'unknown' })
  })

  it('decodes batches (executeBatch_y6U, executeBatch, SimpleAccount executeBatch) call by call', () => {
    const approve = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [other, 1n] })
    const batch = encodeFunctionData({
      abi: account,
      functionName: 'executeBatch_y6U',
      args: [
        [token, other],
        [0n, 3n],
        [approve, '0x'],
      ],
    })
    const decoded = decodeCallData(batch)
    expect(decoded.kind === 'calls' && decoded.calls.map((c) => [c.to, c.value, c.selector])).toEqual([
      [token, 0n, '0x095ea7b3'],
      [other, 3n, null],
    ])
    const named = decodeCallData(
      encodeFunctionData({ abi: account, functionName: 'executeBatch', args: [[token], [0n], [transfer]] }),
    )
    expect(named.kind === 'calls' && named.calls[0]?.selector).toBe('0xa9059cbb')
    const simple = decodeCallData(
      encodeFunctionData({
        abi: simpleAccount,
        functionName: 'executeBatch',
        args: [
          [token, token],
          [transfer, transfer],
        ],
      }),
    )
    expect(simple.kind === 'calls' && simple.calls.length).toBe(2)
  })

  it('tells a deploy-only op (initCode, empty callData) from an empty call on a deployed account', () => {
    expect(decodeCallData('0x', '0x000000a56Aaca3e9a4C479ea6b6CD0DbcB6634F5df20ffbc')).toEqual({
      kind: 'deployOnly',
    })
    expect(decodeCallData('0x', '0x')).toEqual({ kind: 'empty' })
  })

  it('reports an unknown selector and arguments that do not decode, without throwing', () => {
    expect(decodeCallData('0x12345678')).toMatchObject({ kind: 'unknown', selector: '0x12345678' })
    expect(decodeCallData('0x0000189a1234')).toMatchObject({ kind: 'unknown', selector: '0x0000189a' })
    expect(decodeCallData('0x00')).toMatchObject({ kind: 'unknown', selector: null })
    const mismatched =
      `0x00004680${encodeAbiParameters(parseAbiParameters('address[], uint256[], bytes[]'), [[token, other], [0n, 0n], ['0x']]).slice(2)}` as const
    expect(decodeCallData(mismatched)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('lengths differ'),
    })
  })
})
