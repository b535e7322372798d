import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  decodeHandleOpsRevert,
  entryPointV06,
  entryPointV08,
  entryPointV09,
} from '../../../../src/main/service/entryPoint'
import { entryPointErrorRejected } from '../../../../src/main/service/entryPoint/errors'
import { customErrorsAbiV09 } from '../../../../src/main/service/entryPoint/v09/customErrors'
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

describe("every v0.9 custom error is answered with its phase's code, never as an execution revert", () => {
  const sender = '0x3333333333333333333333333333333333333333'
  const cases: [string, unknown[], { code: number; aaCode?: string; phase?: string }][] = [
    ['InvalidBeneficiary', [sender], { code: -32500, aaCode: 'AA90' }],
    ['FailedSendToBeneficiary', [sender, 1n, '0x'], { code: -32500, aaCode: 'AA91' }],
    ['InternalFunction', [], { code: -32500, aaCode: 'AA92' }],
    ['InvalidPaymasterData', [3n], { code: -32602, aaCode: 'AA93', phase: 'paymaster-validation' }],
    ['InvalidPaymaster', [sender], { code: -32602, aaCode: 'AA98', phase: 'paymaster-validation' }],
    [
      'InvalidPaymasterSignatureLength',
      [62n, 65535n],
      { code: -32602, aaCode: 'AA35', phase: 'paymaster-validation' },
    ],
    ['PaymasterNotDeployed', [sender], { code: -32501, aaCode: 'AA30', phase: 'paymaster-validation' }],
    ['Eip7702SenderWithoutCode', [sender], { code: -32500, phase: 'account-validation' }],
    ['Eip7702SenderNotDelegate', [sender], { code: -32500, phase: 'account-validation' }],
    ['Reentrancy', [], { code: -32500 }],
  ]

  it.each(cases)('%s', (errorName, args, expected) => {
    const revertData = encodeErrorResult({ abi: customErrorsAbiV09, errorName, args } as never)
    const reading = entryPointV09.readEntryPointError(revertData)
    expect(reading).not.toBeNull()
    const error = entryPointErrorRejected(reading!)
    expect(error.rpcCode).toBe(expected.code)
    // The message is the decoded error named with its code or meaning, as the explanation's reason says it.
    expect(error.shortMessage).toBe(reading!.text)
    expect(error.shortMessage).toMatch(new RegExp(`^${errorName}\\(.*\\) \\(.+\\)$`))
    expect(error.data).toEqual({
      ...(expected.aaCode ? { aaCode: expected.aaCode } : {}),
      ...(expected.phase ? { phase: expected.phase } : {}),
      revertData,
    })
  })

  it('the list covers every error of the ABI', () => {
    const names = customErrorsAbiV09.map((item) => item.name).sort()
    expect(cases.map(([name]) => name).sort()).toEqual(names)
  })

  it('older versions read none of them', () => {
    const data = encodeErrorResult({ abi: customErrorsAbiV09, errorName: 'Reentrancy' })
    expect(entryPointV08.readEntryPointError(data)).toBeNull()
    expect(entryPointV06.readEntryPointError(data)).toBeNull()
  })
})
