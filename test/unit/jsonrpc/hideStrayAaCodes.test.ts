import { RpcRequestError } from 'viem'
import { getBundlerError } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { RpcError } from '../../../src/main/service/errors'
import { Erc7769Code, RpcCode } from '../../../src/main/service/errors/rpcCodes'
import { hideStrayAaCodes } from '../../../src/main/service/jsonrpc/hideStrayAaCodes'
import { toRpcError } from '../../../src/main/service/jsonrpc/toRpcError'

const PAYMASTER = '0x4A87a6bD5e8f1DC7aE2dD9F1E4cE6eC0c3B2aA15'
const ACCOUNT = '0x888b8ACe3bB3aEa3D5c18aD93E3d5Bc1f27Aa930'
const AA33_LINE = `AA33 reverted in RefusingPaymaster.validatePaymasterUserOp((address,uint256),bytes32,uint256) at ${PAYMASTER}: NotSponsored(${ACCOUNT})`

/** The error viem makes of our JSON-RPC error object, typed the way viem types a bundler's error. */
function typeAsViem(error: { code: number; message: string; data?: unknown }) {
  const request = new RpcRequestError({ body: {}, error, url: 'http://127.0.0.1' })
  return getBundlerError(request, {})
}

describe('hideStrayAaCodes', () => {
  it('an AA33 whose addresses hold aa15 and aa93 reaches viem as a PaymasterFunctionRevertedError', () => {
    const { error } = toRpcError(new RpcError(AA33_LINE, Erc7769Code.simulatePaymasterValidation))
    expect(typeAsViem(error).name).toBe('PaymasterFunctionRevertedError')
  })

  it('the same message sent whole is mistyped by viem (why the hex moves out)', () => {
    expect(typeAsViem({ code: -32501, message: AA33_LINE }).name).not.toBe('PaymasterFunctionRevertedError')
  })

  it('an execution revert at an address holding aa23 stays an execution revert, not the account’s validation', () => {
    const line =
      'execution reverted in unknown contract at 0x12Aa23000000000000000000000000000000beef: not from EntryPoint'
    const { error } = toRpcError(new RpcError(line, Erc7769Code.executionReverted))
    expect(typeAsViem(error).name).toBe('ExecutionRevertedError')
  })

  it('writes only the hex literals that spell a code as 0x…, and keeps the whole text in data.message beside its data', () => {
    const line = `AA33 reverted in RefusingPaymaster.validatePaymasterUserOp(…) at 0x4A87a6bD5e8f1DC7aE2dD9F1E4cE6eC0c3B2bB15: NotSponsored(${ACCOUNT})`
    const error = hideStrayAaCodes({ code: -32501, message: line, data: { aaCode: 'AA33' } })
    expect(error).toEqual({
      code: -32501,
      message:
        'AA33 reverted in RefusingPaymaster.validatePaymasterUserOp(…) at 0x4A87a6bD5e8f1DC7aE2dD9F1E4cE6eC0c3B2bB15: NotSponsored(0x…)',
      data: { aaCode: 'AA33', message: line },
    })
  })

  it('leaves a rejection whose hex spells no code (the addresses a rule violation names) as it was', () => {
    const plain = { code: -32500, message: 'AA21 didn’t pay prefund', data: { aaCode: 'AA21' } }
    expect(hideStrayAaCodes(plain)).toBe(plain)
    const violation = {
      code: -32502,
      message: 'unstaked account reads slot 0x01 of 0x7f0243683687f16c710e458e8a5b24dc1d0ffd52 [STO-033]',
      data: { rules: ['STO-033'] },
    }
    expect(hideStrayAaCodes(violation)).toBe(violation)
  })

  it('applies to an AA code under another code (AA94 as invalid fields) but not to errors clients do not sort', () => {
    const fields = hideStrayAaCodes({ code: -32602, message: 'AA94 gas values overflow at 0xaa10aa10' })
    expect(fields).toEqual({
      code: -32602,
      message: 'AA94 gas values overflow at 0x…',
      data: { message: 'AA94 gas values overflow at 0xaa10aa10' },
    })
    const notFound = {
      code: RpcCode.notFound,
      message: 'UserOpHash: 0x5aa3000000000000000000000000000000000000000000000000000000000001 not found',
    }
    expect(hideStrayAaCodes(notFound)).toBe(notFound)
  })

  it('keeps the message whole when its data is not an object that can hold the full text', () => {
    const listed = { code: -32502, message: 'banned at 0xaa20aa20', data: ['GREP-010'] }
    expect(hideStrayAaCodes(listed)).toBe(listed)
  })
})
