import { decodeErrorResult, type Hex } from 'viem'
import { decodeRevertReason } from '../chain/entryPoint/decodeRevert'
import type { EntryPointModule } from './types'
import { decodeEntryPointError } from './v06/decodeEntryPointError'

/** Why a handleOps call reverted: the operation it names (null when none) and the reason. */
export type HandleOpsRevert = { opIndex: number | null; reason: string }

/**
 * Decodes the revert of a handleOps call: `FailedOp` (every version) names the operation; v0.7+'s
 * `FailedOpWithRevert` names it too, with the inner revert of the account or paymaster; v0.9's custom errors (where
 * older versions had AA90–AA93 and AA98) are named with the code they replace; anything else is the bundle's own
 * reason.
 */
export function decodeHandleOpsRevert(
  entryPoint: Pick<EntryPointModule, 'abi' | 'readEntryPointError'>,
  revertData: Hex,
): HandleOpsRevert {
  try {
    const decoded = decodeEntryPointError(revertData)
    if (decoded.errorName === 'FailedOp') return { opIndex: Number(decoded.args[0]), reason: decoded.args[1] }
    return { opIndex: null, reason: decoded.errorName }
  } catch {
    try {
      const decoded = decodeErrorResult({ abi: entryPoint.abi, data: revertData })
      if (decoded.errorName === 'FailedOpWithRevert') {
        const [opIndex, reason, inner] = decoded.args as [bigint, string, Hex]
        const innerReason = decodeRevertReason(inner)
        return { opIndex: Number(opIndex), reason: innerReason ? `${reason}: ${innerReason}` : reason }
      }
    } catch {}
    return {
      opIndex: null,
      reason:
        entryPoint.readEntryPointError(revertData)?.text ??
        decodeRevertReason(revertData) ??
        `reverted with ${revertData.slice(0, 74)}`,
    }
  }
}
