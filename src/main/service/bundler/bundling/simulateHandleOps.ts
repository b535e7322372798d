import { decodeErrorResult, type Hex, type RpcStateOverride } from 'viem'
import { decodeRevertReason, getRevertData } from '../../chain/entryPoint/decodeRevert'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain } from '../../chain/types'
import type { EntryPointModule, UserOperationBase } from '../../entryPoint/types'
import { decodeEntryPointError } from '../../entryPoint/v06/decodeEntryPointError'

export type SimulateHandleOpsReturnType =
  | { ok: true }
  /** `opIndex` is null when the bundle reverted for a reason that names no operation. */
  | { ok: false; opIndex: number | null; reason: string }

/** eth_call of handleOps(ops, beneficiary) from the executor: would this bundle go through as it is? */
export async function simulateHandleOps(
  chain: Pick<Chain, 'publicClient' | 'executor'>,
  entryPoint: EntryPointModule,
  ops: UserOperationBase[],
  gas: bigint,
  /** State the bundle's transaction sets before it runs (EIP-7702 delegations). */
  stateOverride?: RpcStateOverride,
): Promise<SimulateHandleOpsReturnType> {
  const data = entryPoint.encodeHandleOps(ops, chain.executor.address)
  try {
    await requestRpc(chain.publicClient, 'eth_call', [
      { from: chain.executor.address, to: entryPoint.address, data, gas: `0x${gas.toString(16)}` },
      'latest',
      ...(stateOverride ? [stateOverride] : []),
    ])
    return { ok: true }
  } catch (err) {
    const revertData = getRevertData(err)
    if (!revertData) throw err
    try {
      const decoded = decodeEntryPointError(revertData)
      if (decoded.errorName === 'FailedOp')
        return { ok: false, opIndex: Number(decoded.args[0]), reason: decoded.args[1] }
      return { ok: false, opIndex: null, reason: decoded.errorName }
    } catch {
      // v0.7+: FailedOpWithRevert (the inner revert of the account or paymaster) names the operation too.
      try {
        const decoded = decodeErrorResult({ abi: entryPoint.abi, data: revertData })
        if (decoded.errorName === 'FailedOpWithRevert') {
          const [opIndex, reason, inner] = decoded.args as [bigint, string, Hex]
          const innerReason = decodeRevertReason(inner)
          return {
            ok: false,
            opIndex: Number(opIndex),
            reason: innerReason ? `${reason}: ${innerReason}` : reason,
          }
        }
      } catch {}
      return {
        ok: false,
        opIndex: null,
        reason: decodeRevertReason(revertData) ?? `reverted with ${revertData.slice(0, 74)}`,
      }
    }
  }
}
