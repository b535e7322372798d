import type { Address, Hex } from 'viem'
import { isNodeUnreachable } from '../../chain/node/isNodeUnreachable'
import type { Chain } from '../../chain/types'
import type { BundlePlan, EntryPointModule } from '../../entryPoint/types'
import type { Logger } from '../../log/logger'
import { describeExpired, findExpired } from '../mempool/findExpired'
import { blockRangeError, type Mempool, type MempoolEntry } from '../mempool/mempool'
import type { BundlingFailure } from '../mempool/reputationAccounting'
import type { DecodeRevertReasons } from '../receipts/decodeRevertReasons'
import type { BundleSender, RpcTransactionReceipt } from './createBundleSender'
import { parseBundleLogs, type UserOperationOutcome } from './parseBundleLogs'
import { requirePlainExecutor } from './requirePlainExecutor'
import { simulateHandleOps } from './simulateHandleOps'

export type BundleResult = { transactionHash: Hex; userOpHashes: Hex[] }

/** What the runner reports back to the bundler (which records, emits events and keeps reputation). */
export type BundleRunnerHooks = {
  /** Removed from the mempool: it would make the bundle revert, or its predecessor was dropped. */
  onDropped: (entry: MempoolEntry, reason: string) => void
  /**
   * The EntryPoint rejected it in the bundle's simulation (it is dropped next). Returns an entity that made the
   * bundle fail and is banned for it: every other pending operation using it is dropped too.
   */
  onRejected: (entry: MempoolEntry, reason: string, failure: BundlingFailure) => Address | null
  onSubmitted: (entries: MempoolEntry[], transactionHash: Hex) => void
  /** Decodes the bundle's revert reasons in place before they are recorded (nothing to do when none reverted). */
  decodeRevertReasons: DecodeRevertReasons
  /** Mined; `outcome` from its UserOperationEvent. */
  onMined: (entry: MempoolEntry, outcome: UserOperationOutcome, receipt: RpcTransactionReceipt) => void
  /** Sending failed; the operations went back to the mempool (or were dropped after too many attempts). */
  onSendFailed: (entries: MempoolEntry[], error: unknown) => void
}

export type CreateBundleRunnerParameters = {
  chain: Chain
  /** The EntryPoint this runner bundles for: a bundle never mixes versions. */
  entryPoint: EntryPointModule
  mempool: Mempool
  sender: BundleSender
  hooks: BundleRunnerHooks
  maxBundleOperations: number
  /** Gas limit of the largest bundle (below the block gas limit). */
  maxBundleGas: () => Promise<bigint>
  log: Logger
}

export type BundleRunner = {
  /** Builds, simulates and sends one bundle from the mempool; null when nothing is pending. */
  bundleOnce: () => Promise<BundleResult | null>
  /** Resolves when no bundle is being built or sent. */
  idle: () => Promise<void>
  /**
   * Holds bundling back (a revert of the stack): resolves once the bundle under way is done; bundles asked for
   * meanwhile wait for `release`.
   */
  hold: () => Promise<() => void>
}

/** Fixed gas on top of the operations' own limits (transaction, handleOps loop, compensation). */
const BUNDLE_OVERHEAD_GAS = 100_000n
const MAX_SEND_ATTEMPTS = 3

/**
 * Turns pending operations into handleOps transactions, one at a time. Before sending, the bundle is
 * simulated as a whole (eth_call handleOps); an operation the EntryPoint names in a FailedOp is dropped with
 * that reason (and so are later nonces of its sender) and the rest is simulated again, so one bad operation
 * never sinks the others.
 */
export function createBundleRunner(params: CreateBundleRunnerParameters): BundleRunner {
  const { chain, entryPoint, mempool, sender, hooks, log } = params
  let current: Promise<BundleResult | null> = Promise.resolve(null)

  const drop = (entries: MempoolEntry[], entry: MempoolEntry, reason: string) => {
    mempool.remove(entry.userOpHash)
    hooks.onDropped(entry, reason)
    // Later nonces of the same sender and key cannot run without it.
    const key = entry.userOperation.nonce >> 64n
    for (const other of [...entries]) {
      const op = other.userOperation
      if (
        other !== entry &&
        op.sender === entry.userOperation.sender &&
        op.nonce >> 64n === key &&
        op.nonce > entry.userOperation.nonce
      ) {
        entries.splice(entries.indexOf(other), 1)
        mempool.remove(other.userOpHash)
        hooks.onDropped(
          other,
          `AA25 invalid account nonce: the operation with nonce ${entry.userOperation.nonce} before it was dropped (${reason})`,
        )
      }
    }
    entries.splice(entries.indexOf(entry), 1)
  }

  /**
   * Drops an operation the EntryPoint rejected and, when the bundler bans an entity for it, every other pending
   * operation that uses that entity (in this bundle or not).
   */
  const reject = (entries: MempoolEntry[], entry: MempoolEntry, reason: string, failure: BundlingFailure) => {
    const banned = hooks.onRejected(entry, reason, failure)
    drop(entries, entry, reason)
    if (!banned) return
    for (const other of mempool.entriesUsing(banned)) {
      if (other.state === 'bundling' && !entries.includes(other)) continue
      const why = `${banned} is banned: it made a bundle fail (${reason}) [GREP-040]`
      if (entries.includes(other)) drop(entries, other, why)
      else if (mempool.remove(other.userOpHash)) hooks.onDropped(other, why)
    }
  }

  /**
   * Puts a bundle that could not go back into the mempool; an operation that failed this way too often is dropped.
   * With the chain away the attempt does not count and the failure is thrown on: the scheduler waits for the chain
   * rather than retrying (an acknowledged operation is never dropped for an outage).
   */
  const release = (entries: MempoolEntry[], error: unknown): null => {
    if (isNodeUnreachable(error)) {
      for (const entry of entries) entry.state = 'pending'
      throw error
    }
    const retry: MempoolEntry[] = []
    for (const entry of entries) {
      entry.attempts++
      if (entry.attempts >= MAX_SEND_ATTEMPTS) {
        mempool.remove(entry.userOpHash)
        hooks.onDropped(
          entry,
          `bundle could not be sent ${entry.attempts} times: ${(error as Error).message?.split('\n')[0]}`,
        )
      } else {
        entry.state = 'pending'
        retry.push(entry)
      }
    }
    hooks.onSendFailed(retry, error)
    return null
  }

  const build = async (): Promise<BundleResult | null> => {
    const maxGas = await params.maxBundleGas()
    const entries = mempool.selectForBundle({
      maxOperations: params.maxBundleOperations,
      maxGas: maxGas - BUNDLE_OVERHEAD_GAS,
    })
    if (entries.length === 0) return null
    for (const entry of entries) entry.state = 'bundling'
    const gasOf = () => entries.reduce((sum, e) => sum + e.bundleGas, BUNDLE_OVERHEAD_GAS)

    if (entryPoint.bundlesFromPlainEoa) {
      try {
        await requirePlainExecutor(chain)
      } catch (err) {
        if (!isNodeUnreachable(err)) log.error({ ops: entries.length }, (err as Error).message)
        return release(entries, err)
      }
    }

    // Windows in chain time: one the chain's clock has passed would fail in any block from now on.
    const now = chain.clock.now()
    for (const entry of findExpired(entries, now)) drop(entries, entry, describeExpired(entry, now))
    if (entries.length === 0) return null

    // v0.9 windows in block numbers: the bundle lands in the next block at the soonest; one ending before is dropped.
    if (entries.some((e) => e.blockWindowEnd)) {
      let current: bigint
      try {
        current = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
      } catch (err) {
        return release(entries, err)
      }
      for (const entry of [...entries]) {
        const end = entry.blockWindowEnd
        if (end && BigInt(end.block) < current + 1n && entries.includes(entry))
          drop(
            entries,
            entry,
            `${blockRangeError(end.entity)}: valid until block ${end.block}, the chain is at block ${current}; expired in the mempool`,
          )
      }
      if (entries.length === 0) return null
    }

    // What the bundle's transaction carries besides the operations (EIP-7702 authorizations); an operation whose
    // authorization no longer matches is dropped with the reason.
    let plan: BundlePlan
    try {
      plan = await entryPoint.planBundle(
        chain,
        entries.map((e) => e.userOperation),
      )
    } catch (err) {
      return release(entries, err)
    }
    const invalid = plan.invalid.map(({ index, reason }) => [entries[index], reason] as const)
    for (const [entry, reason] of invalid) if (entry && entries.includes(entry)) drop(entries, entry, reason)

    // Simulate the whole bundle; drop what the EntryPoint rejects.
    while (entries.length > 0) {
      let simulation: Awaited<ReturnType<typeof simulateHandleOps>>
      try {
        simulation = await simulateHandleOps(
          chain,
          entryPoint,
          entries.map((e) => e.userOperation),
          gasOf(),
          plan.stateOverride,
        )
      } catch (err) {
        return release(entries, err)
      }
      if (simulation.ok) break
      const culprit = simulation.opIndex === null ? undefined : entries[simulation.opIndex]
      if (culprit) {
        // Failing on its own is a failed second validation; passing alone, it failed because of the others.
        const failsAlone =
          entries.length === 1 ||
          (await findFailingAlone([culprit], plan.stateOverride).catch(() => [])).length > 0
        reject(entries, culprit, simulation.reason, failsAlone ? 'validation' : 'bundle')
        continue
      }
      // A revert that names no operation: find it by simulating each alone.
      const alone = await findFailingAlone(entries, plan.stateOverride)
      if (alone.length === 0) {
        release(entries, new Error(`bundle simulation reverted: ${simulation.reason}`))
        return null
      }
      for (const [entry, reason] of alone)
        if (entries.includes(entry)) reject(entries, entry, reason, 'validation')
    }
    if (entries.length === 0) return null

    const data = entryPoint.encodeHandleOps(
      entries.map((e) => e.userOperation),
      chain.executor.address,
    )
    let receipt: RpcTransactionReceipt
    try {
      receipt = await sender.send(
        { to: entryPoint.address, data, gas: gasOf(), authorizationList: plan.authorizationList },
        (transactionHash) => hooks.onSubmitted(entries, transactionHash),
      )
    } catch (err) {
      if (!isNodeUnreachable(err))
        log.warn({ err: (err as Error).message?.split('\n')[0], ops: entries.length }, 'bundle send failed')
      return release(entries, err)
    }
    const outcomes = parseBundleLogs(receipt.logs, entryPoint.address)
    await hooks.decodeRevertReasons(outcomes)
    const unexecuted: MempoolEntry[] = []
    for (const entry of entries) {
      const outcome = outcomes.get(entry.userOpHash)
      if (!outcome) {
        unexecuted.push(entry)
        continue
      }
      mempool.remove(entry.userOpHash)
      hooks.onMined(entry, outcome, receipt)
    }
    if (unexecuted.length > 0) {
      release(
        unexecuted,
        new Error(`bundle ${receipt.transactionHash} did not execute them (status ${receipt.status})`),
      )
    }
    return { transactionHash: receipt.transactionHash, userOpHashes: entries.map((e) => e.userOpHash) }
  }

  const findFailingAlone = async (
    entries: MempoolEntry[],
    stateOverride: BundlePlan['stateOverride'],
  ): Promise<[MempoolEntry, string][]> => {
    const failing: [MempoolEntry, string][] = []
    for (const entry of entries) {
      const result = await simulateHandleOps(
        chain,
        entryPoint,
        [entry.userOperation],
        entry.bundleGas + BUNDLE_OVERHEAD_GAS,
        stateOverride,
      )
      if (!result.ok) failing.push([entry, result.reason])
    }
    return failing
  }

  const bundleOnce = () => {
    const run = current.then(build)
    current = run.catch(() => null)
    return run
  }

  return {
    bundleOnce,
    async hold() {
      let release = () => {}
      const held = new Promise<null>((resolve) => {
        release = () => resolve(null)
      })
      const before = current
      current = before.then(() => held)
      await before
      return release
    },
    async idle() {
      // Until the last queued run has finished (runs queued meanwhile included).
      let awaited: Promise<unknown> | undefined
      while (awaited !== current) {
        awaited = current
        await awaited
      }
    },
  }
}
