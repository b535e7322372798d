import { numberToHex, type RpcStateOverride } from 'viem'
import type { Chain } from '../../chain/types'
import { readAaCode, userOperationRejected } from '../../entryPoint/errors'
import type { EntryPointModule, UserOperationBase } from '../../entryPoint/types'
import { AppError } from '../../errors'
import { type BundlerOptions, SIMULATION_GAS } from '../bundlerOptions'
import type { Mempool } from '../mempool/mempool'
import { entryPointNonceSlot } from '../validation/entryPointNonceSlot'
import { simulateValidationWithRules } from '../validation/simulateValidationWithRules'
import type { NonceTracker } from './nonceTracker'

export type SimulatedAdmission = Awaited<ReturnType<typeof simulateValidationWithRules>> & { validated: true }
/** `validated: false`: accepted behind pending operations of its sender, validated when bundled. */
export type AdmissionSimulation = SimulatedAdmission | { validated: false }

export type SimulateNonceAwareParameters = {
  chain: Chain
  entryPoint: EntryPointModule
  mempool: Mempool
  nonces: NonceTracker
  userOperation: UserOperationBase
  safeMode: boolean
  /** What counts as staked for the ERC-7562 rules. */
  stakeThresholds: Pick<BundlerOptions, 'minStake' | 'minUnstakeDelay'>
  /** How long an operation whose nonce follows a gap waits for the missing nonces to arrive. */
  nonceGapWaitMs: number
}

/**
 * Simulates the operation's validation; when its nonce follows operations of the same sender that are still
 * pending, simulates with the EntryPoint's nonce overridden to its own (and, if the account is only deployed
 * by an earlier pending operation, accepts it for validation at bundling time).
 */
export async function simulateNonceAware({
  chain,
  entryPoint,
  mempool,
  nonces,
  userOperation: op,
  safeMode,
  stakeThresholds,
  nonceGapWaitMs,
}: SimulateNonceAwareParameters): Promise<AdmissionSimulation> {
  const simulate = async (stateOverride?: RpcStateOverride): Promise<SimulatedAdmission> => ({
    ...(await simulateValidationWithRules({
      chain,
      entryPoint,
      userOperation: op,
      safeMode,
      stateOverride,
      gas: SIMULATION_GAS,
      minStake: stakeThresholds.minStake,
      minUnstakeDelaySec: BigInt(stakeThresholds.minUnstakeDelay),
    })),
    validated: true,
  })

  if (!nonces.hasLowerNonce(op)) {
    try {
      return await simulate()
    } catch (err) {
      if (!isAaError(err, 'AA25') || !nonces.hasLowerNonce(op)) throw err
    }
  }
  const key = op.nonce >> 64n
  const deadline = Date.now() + nonceGapWaitMs
  let onChain: bigint
  let fresh = false
  for (;;) {
    await nonces.waitForLowerInFlight(op)
    onChain = await nonces.readNonce(op, fresh)
    if (op.nonce <= onChain || mempool.hasContiguousPredecessors(op.sender, op.nonce, onChain)) break
    if (!fresh) {
      // The remembered nonce may be behind (someone else's bundle): read the node before waiting.
      fresh = true
      continue
    }
    if (Date.now() >= deadline) {
      throw userOperationRejected(
        `AA25 invalid account nonce: ${op.nonce} leaves a gap after the account's nonce ${onChain} and the pending operations`,
      )
    }
    await nonces.waitForMempoolChange(deadline - Date.now())
  }
  if (op.nonce <= onChain) return simulate()
  const stateOverride: RpcStateOverride = {
    [entryPoint.address]: {
      stateDiff: {
        [entryPointNonceSlot(op.sender, key)]: numberToHex(op.nonce & ((1n << 64n) - 1n), { size: 32 }),
      },
    },
  }
  try {
    return await simulate(stateOverride)
  } catch (err) {
    const deploysEarlier = mempool
      .entriesOfSender(op.sender)
      .some((e) => entryPoint.deploysAccount(e.userOperation))
    if (isAaError(err, 'AA20') && deploysEarlier) return { validated: false }
    throw err
  }
}

function isAaError(err: unknown, code: string): boolean {
  return err instanceof AppError && readAaCode(err.shortMessage) === code
}
