import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeHandleOpsRevert, entryPointV09 } from '../../../../src/main/service/entryPoint'

const abi = parseAbi([
  'error InvalidPaymasterData(uint256 paymasterAndDataLength)',
  'error InvalidPaymaster(address paymaster)',
  'error InvalidBeneficiary(address beneficiary)',
])

describe("EntryPoint v0.9's custom errors", () => {
  it('are named in a handleOps revert with the AA code they replace', () => {
    const data = encodeErrorResult({ abi, errorName: 'InvalidPaymasterData', args: [3n] })
    expect(decodeHandleOpsRevert(entryPointV09, data)).toEqual({
      opIndex: null,
      reason: 'InvalidPaymasterData(3) (AA93 invalid paymasterAndData)',
    })
    const paymaster = '0x3333333333333333333333333333333333333333'
    expect(
      decodeHandleOpsRevert(
        entryPointV09,
        encodeErrorResult({ abi, errorName: 'InvalidPaymaster', args: [paymaster] }),
      ).reason,
    ).toBe(`InvalidPaymaster(${paymaster}) (AA98 invalid paymaster)`)
    expect(
      decodeHandleOpsRevert(
        entryPointV09,
        encodeErrorResult({ abi, errorName: 'InvalidBeneficiary', args: [paymaster] }),
      ).reason,
    ).toMatch(/AA90 invalid beneficiary/)
  })
})
