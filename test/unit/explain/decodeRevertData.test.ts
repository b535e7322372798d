import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeRevertData } from '../../../src/main/service/explain/decodeRevertData'

const ledgerAbi = parseAbi(['error InsufficientBalance(uint256 available, uint256 required)'])
const entryPointAbi = parseAbi(['error FailedOpWithRevert(uint256 opIndex, string reason, bytes inner)'])
const accountAbi = parseAbi(['error BadSignature()'])

describe('decodeRevertData', () => {
  it('decodes Error(string) to its message', () => {
    const data = encodeErrorResult({
      abi: parseAbi(['error Error(string)']),
      errorName: 'Error',
      args: ['no funds'],
    })
    expect(decodeRevertData(data)).toEqual({
      kind: 'error-string',
      name: 'Error',
      args: ['no funds'],
      text: 'no funds',
      data,
    })
  })

  it.each([
    [0x01n, 'Panic(0x01): assert failed'],
    [0x11n, 'Panic(0x11): arithmetic overflow or underflow'],
    [0x12n, 'Panic(0x12): division by zero'],
    [0x32n, 'Panic(0x32): array index out of bounds'],
    [0x00n, 'Panic(0x00): generic panic'],
    [0x99n, 'Panic(0x99): unknown panic code'],
  ])('decodes Panic(%s) with its meaning', (code, text) => {
    const data = encodeErrorResult({
      abi: parseAbi(['error Panic(uint256)']),
      errorName: 'Panic',
      args: [code],
    })
    expect(decodeRevertData(data)).toMatchObject({
      kind: 'panic',
      name: 'Panic',
      args: [code.toString()],
      text,
    })
  })

  it('decodes a custom error of the given ABI with its arguments', () => {
    const data = encodeErrorResult({ abi: ledgerAbi, errorName: 'InsufficientBalance', args: [5n, 7n] })
    expect(decodeRevertData(data, ledgerAbi)).toEqual({
      kind: 'custom-error',
      name: 'InsufficientBalance',
      args: ['5', '7'],
      text: 'InsufficientBalance(5, 7)',
      data,
    })
  })

  it("decodes a known error carried in a bytes argument (the EntryPoint's FailedOpWithRevert)", () => {
    const inner = encodeErrorResult({ abi: accountAbi, errorName: 'BadSignature' })
    const data = encodeErrorResult({
      abi: entryPointAbi,
      errorName: 'FailedOpWithRevert',
      args: [0n, 'AA23 reverted', inner],
    })
    expect(decodeRevertData(data, [...entryPointAbi, ...accountAbi]).text).toBe(
      'FailedOpWithRevert(0, "AA23 reverted", BadSignature())',
    )
  })

  it('shows an unknown selector raw, never guessed from another ABI', () => {
    const data = encodeErrorResult({ abi: ledgerAbi, errorName: 'InsufficientBalance', args: [5n, 7n] })
    expect(decodeRevertData(data, accountAbi)).toEqual({
      kind: 'unknown',
      text: 'unknown error 0xcf479181 (68 bytes of revert data)',
      data,
    })
  })

  it('tells empty revert data apart, and data shorter than a selector', () => {
    expect(decodeRevertData('0x')).toEqual({ kind: 'empty', text: 'reverted without data', data: '0x' })
    expect(decodeRevertData(undefined).kind).toBe('empty')
    expect(decodeRevertData('0x1234')).toEqual({
      kind: 'unknown',
      text: 'reverted with 0x1234',
      data: '0x1234',
    })
  })
})
