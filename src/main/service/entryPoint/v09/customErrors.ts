import { decodeErrorResult, encodeErrorResult, type Hex, parseAbi } from 'viem'
import type { EntryPointErrorReading, UserOperationPhase } from '../types'

/**
 * EntryPoint v0.9 reverts with custom errors where v0.8 had FailedOp strings AA90–AA93 and AA98 (and plain require
 * strings); its simulation contract adds PaymasterNotDeployed (v0.8's `AA30 paymaster not deployed`). Each is told
 * with the code it replaces (or, where v0.8 had none, what it means), so its explanation (shared/aaErrors.ts) is found
 * as for the older versions, and with the phase it refuses the operation in.
 */
export const customErrorsAbiV09 = parseAbi([
  'error InvalidBeneficiary(address beneficiary)',
  'error FailedSendToBeneficiary(address beneficiary, uint256 amount, bytes revertData)',
  'error InternalFunction()',
  'error InvalidPaymasterData(uint256 paymasterAndDataLength)',
  'error InvalidPaymaster(address paymaster)',
  'error InvalidPaymasterSignatureLength(uint256 dataLength, uint256 pmSignatureLength)',
  'error PaymasterNotDeployed(address paymaster)',
  'error Eip7702SenderWithoutCode(address sender)',
  'error Eip7702SenderNotDelegate(address sender)',
  'error Reentrancy()',
])

type CustomErrorName = (typeof customErrorsAbiV09)[number]['name']

/**
 * What each error means: its code or words, the phase (null: the bundle, not the operation), and whether handleOps
 * finds it in the operation's fields before any contract runs (`_copyUserOpToMemory`, `getUserOpHash`).
 */
const MEANINGS: Record<
  CustomErrorName,
  { aaCode?: string; words: string; phase: UserOperationPhase | null; fields?: boolean }
> = {
  InvalidBeneficiary: { aaCode: 'AA90', words: 'invalid beneficiary', phase: null },
  FailedSendToBeneficiary: { aaCode: 'AA91', words: 'failed send to beneficiary', phase: null },
  InternalFunction: { aaCode: 'AA92', words: 'internal call only', phase: null },
  InvalidPaymasterData: {
    aaCode: 'AA93',
    words: 'invalid paymasterAndData',
    phase: 'paymaster-validation',
    fields: true,
  },
  InvalidPaymaster: {
    aaCode: 'AA98',
    words: 'invalid paymaster',
    phase: 'paymaster-validation',
    fields: true,
  },
  InvalidPaymasterSignatureLength: {
    aaCode: 'AA35',
    words: 'malformed paymaster data',
    phase: 'paymaster-validation',
    fields: true,
  },
  PaymasterNotDeployed: {
    aaCode: 'AA30',
    words: 'paymaster not deployed',
    phase: 'paymaster-validation',
  },
  Eip7702SenderWithoutCode: {
    words: 'the sender has no code: its EIP-7702 authorization was not applied',
    phase: 'account-validation',
  },
  Eip7702SenderNotDelegate: {
    words: 'the sender is not an EIP-7702 delegate (the 0x7702 initCode needs one)',
    phase: 'account-validation',
  },
  Reentrancy: {
    words:
      'handleOps was entered again, or sent by a contract or an account with an EIP-7702 delegation: v0.9 takes bundles only from a plain EOA',
    phase: null,
  },
}

/**
 * `InvalidPaymaster(0x…) (AA98 invalid paymaster)` with its code, phase and revert data, or null when the data is
 * none of v0.9's custom errors.
 */
export function readEntryPointErrorV09(revertData: Hex): EntryPointErrorReading | null {
  let decoded: ReturnType<typeof decodeErrorResult<typeof customErrorsAbiV09>>
  try {
    decoded = decodeErrorResult({ abi: customErrorsAbiV09, data: revertData })
  } catch {
    return null
  }
  const meaning = MEANINGS[decoded.errorName]
  const shown = ((decoded.args ?? []) as readonly unknown[]).map((arg) =>
    typeof arg === 'string' && arg.length > 66 ? `${arg.slice(0, 66)}…` : String(arg),
  )
  return {
    text: `${decoded.errorName}(${shown.join(', ')}) (${meaning.aaCode ? `${meaning.aaCode} ` : ''}${meaning.words})`,
    aaCode: meaning.aaCode ?? null,
    phase: meaning.phase,
    fields: meaning.fields ?? false,
    revertData,
  }
}

/** The reading of the error handleOps would revert with: what the service's own checks of the fields answer. */
export function readRaisedErrorV09<Name extends CustomErrorName>(
  errorName: Name,
  args: readonly unknown[],
): EntryPointErrorReading {
  const data = encodeErrorResult({ abi: customErrorsAbiV09, errorName, args } as never)
  return readEntryPointErrorV09(data) as EntryPointErrorReading
}
