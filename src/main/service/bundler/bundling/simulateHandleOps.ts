import type { RpcStateOverride } from 'viem'
import { getRevertData } from '../../chain/entryPoint/decodeRevert'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain } from '../../chain/types'
import { decodeHandleOpsRevert } from '../../entryPoint'
import type { EntryPointModule, UserOperationBase } from '../../entryPoint/types'

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
    return { ok: false, ...decodeHandleOpsRevert(entryPoint, revertData) }
  }
}
