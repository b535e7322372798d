import { decodeErrorResult, type Hex, parseAbi } from 'viem'

/**
 * EntryPoint v0.9 reverts with custom errors where v0.8 had FailedOp strings AA90–AA93 and AA98 (and plain require
 * strings). Each is told with the code it replaces (or, where v0.8 had none, what it means), so its explanation
 * (shared/aaErrors.ts) is found as for the older versions.
 */
const customErrorsAbi = parseAbi([
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

const REPLACED_CODE: Record<string, string> = {
  InvalidBeneficiary: 'AA90 invalid beneficiary',
  FailedSendToBeneficiary: 'AA91 failed send to beneficiary',
  InternalFunction: 'AA92 internal call only',
  InvalidPaymasterData: 'AA93 invalid paymasterAndData',
  InvalidPaymaster: 'AA98 invalid paymaster',
  InvalidPaymasterSignatureLength: 'AA35 malformed paymaster data',
  PaymasterNotDeployed: 'AA30 paymaster not deployed',
  Eip7702SenderWithoutCode: 'the sender has no code: its EIP-7702 authorization was not applied',
  Eip7702SenderNotDelegate: 'the sender is not an EIP-7702 delegate (the 0x7702 initCode needs one)',
  Reentrancy:
    'handleOps was entered again, or sent by a contract or an account with an EIP-7702 delegation: v0.9 takes bundles only from a plain EOA',
}

/** `InvalidPaymasterData(3) (AA93 invalid paymasterAndData)`, or null when the data is none of these errors. */
export function describeCustomEntryPointError(revertData: Hex): string | null {
  try {
    const { errorName, args } = decodeErrorResult({ abi: customErrorsAbi, data: revertData })
    const shown = (args ?? []).map((arg) =>
      typeof arg === 'string' && arg.length > 66 ? `${arg.slice(0, 66)}…` : String(arg),
    )
    return `${errorName}(${shown.join(', ')}) (${REPLACED_CODE[errorName]})`
  } catch {
    return null
  }
}
