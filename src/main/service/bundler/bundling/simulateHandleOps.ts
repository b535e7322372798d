import type { Address, Hex } from 'viem'
import { decodeEntryPointError } from '../../chain/entryPoint/decodeEntryPointError'
import { decodeRevertReason, getRevertData } from '../../chain/entryPoint/decodeRevert'
import { encodeHandleOps as encodeHandleOpsCall } from '../../chain/entryPoint/encodeEntryPointCall'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain, UserOperationV06 } from '../../chain/types'

export type SimulateHandleOpsReturnType =
  | { ok: true }
  /** `opIndex` is null when the bundle reverted for a reason that names no operation. */
  | { ok: false; opIndex: number | null; reason: string }

/** eth_call of handleOps(ops, beneficiary) from the executor: would this bundle go through as it is? */
export async function simulateHandleOps(
  chain: Pick<Chain, 'publicClient' | 'addresses' | 'executor'>,
  ops: UserOperationV06[],
  gas: bigint,
): Promise<SimulateHandleOpsReturnType> {
  const data = encodeHandleOps(ops, chain.executor.address)
  try {
    await requestRpc(chain.publicClient, 'eth_call', [
      { from: chain.executor.address, to: chain.addresses.entryPoint, data, gas: `0x${gas.toString(16)}` },
      'latest',
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
      return {
        ok: false,
        opIndex: null,
        reason: decodeRevertReason(revertData) ?? `reverted with ${revertData.slice(0, 74)}`,
      }
    }
  }
}

export function encodeHandleOps(ops: UserOperationV06[], beneficiary: Address): Hex {
  return encodeHandleOpsCall(ops, beneficiary)
}
