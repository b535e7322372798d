import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeOperationRevert } from '../../../src/main/service/explain/decodeOperationRevert'

const errors = parseAbi([
  'error InsufficientBalance(uint256 available, uint256 required)',
  'error PostOpReverted(bytes returnData)',
  'error PostOpFailed(uint256 actualGasCost)',
])
const insufficient = encodeErrorResult({ abi: errors, errorName: 'InsufficientBalance', args: [5n, 7n] })
const postOpFailed = encodeErrorResult({ abi: errors, errorName: 'PostOpFailed', args: [4210n] })

describe('decodeOperationRevert (the reason of a receipt)', () => {
  it("decodes an execution's custom error with the known ABIs", () => {
    expect(decodeOperationRevert({ phase: 'execution', data: insufficient }, { errors })).toBe(
      'InsufficientBalance(5, 7)',
    )
  })

  it("unwraps v0.7+'s PostOpReverted(bytes) to the paymaster's own error, saying it was the postOp", () => {
    const wrapped = encodeErrorResult({ abi: errors, errorName: 'PostOpReverted', args: [postOpFailed] })
    expect(decodeOperationRevert({ phase: 'postOp', data: wrapped }, { errors })).toBe(
      'postOp reverted: PostOpFailed(4210)',
    )
  })

  it('keeps an unknown selector raw and has no reason for empty data', () => {
    expect(decodeOperationRevert({ phase: 'execution', data: insufficient }, { errors: [] })).toBe(
      insufficient,
    )
    expect(decodeOperationRevert({ phase: 'execution', data: '0x' }, { errors })).toBeNull()
    expect(decodeOperationRevert({ phase: 'postOp', data: '0x' }, { errors })).toBe('postOp reverted')
  })
})
