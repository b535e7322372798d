import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeHandleOpsRevert, entryPointV09 } from '../../../../src/main/service/entryPoint'
import { explainAaError } from '../../../../src/shared/aaErrors'

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

describe("EntryPoint v0.9's errors without a FailedOp string", () => {
  const more = parseAbi([
    'error InvalidPaymasterSignatureLength(uint256 dataLength, uint256 pmSignatureLength)',
    'error PaymasterNotDeployed(address paymaster)',
    'error Eip7702SenderWithoutCode(address sender)',
    'error Reentrancy()',
  ])
  const reasonOf = (data: `0x${string}`) => decodeHandleOpsRevert(entryPointV09, data).reason

  it('name a paymaster signature length reaching into the static fields as AA35, so its explanation is found', () => {
    const reason = reasonOf(
      encodeErrorResult({ abi: more, errorName: 'InvalidPaymasterSignatureLength', args: [70n, 65n] }),
    )
    expect(reason).toBe('InvalidPaymasterSignatureLength(70, 65) (AA35 malformed paymaster data)')
    expect(explainAaError(reason)?.title).toBe('malformed paymaster data')
  })

  it("name the simulation's missing paymaster as AA30, and say what Reentrancy and an undelegated 7702 sender mean", () => {
    const paymaster = '0x3333333333333333333333333333333333333333'
    const notDeployed = reasonOf(
      encodeErrorResult({ abi: more, errorName: 'PaymasterNotDeployed', args: [paymaster] }),
    )
    expect(explainAaError(notDeployed)?.code).toBe('AA30')
    expect(reasonOf(encodeErrorResult({ abi: more, errorName: 'Reentrancy' }))).toMatch(
      /^Reentrancy\(\) \(.*only from a plain EOA\)$/,
    )
    expect(
      reasonOf(encodeErrorResult({ abi: more, errorName: 'Eip7702SenderWithoutCode', args: [paymaster] })),
    ).toMatch(/EIP-7702 authorization was not applied/)
  })
})
