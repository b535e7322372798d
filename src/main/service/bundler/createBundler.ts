import { dirname, join } from 'node:path'
import type { Address, Hex, RpcStateOverride } from 'viem'
import { getDepositInfo } from '../chain/entryPoint/getDepositInfo'
import { isNodeUnreachable } from '../chain/node/isNodeUnreachable'
import { requestRpc } from '../chain/node/requestRpc'
import type { Chain } from '../chain/types'
import { createEntryPoints, listServedEntryPoints } from '../entryPoint'
import { readAaCode } from '../entryPoint/errors'
import type { EntryPointModule, EntryPoints, GasFees } from '../entryPoint/types'
import { Erc7769Code, RpcCode } from '../errors/rpcCodes'
import type { EventBus } from '../events'
import { explainRejection } from '../explain/explainRejection'
import { createExplanationKeeper } from '../explain/keepExplanations'
import { type SimulateUserOperationParameters, simulateUserOperation } from '../explain/simulateUserOperation'
import type { Explanation } from '../explain/types'
import type { Logger } from '../log/logger'
import { parseParam } from '../schemas/parseParam'
import type { Store } from '../store/openStore'
import { openUserOperationHistory } from '../store/userOperationHistory'
import {
  openUserOperationLog,
  type RecordSequence,
  type UserOperationLog,
} from '../store/userOperations.repo'
import { createConcurrencyLimit } from '../util/createConcurrencyLimit'
import { definedOnly } from '../util/definedOnly'
import { admitUserOperation } from './admission/admitUserOperation'
import { createNonceTracker } from './admission/nonceTracker'
import {
  type BundlerOptions,
  type BundlingMode,
  countsAsStaked,
  defaultBundlerOptions,
  type ReceiptFormat,
} from './bundlerOptions'
import { createBundlerStackPart } from './bundlerStackPart'
import { type BundleResult, createBundleRunner } from './bundling/createBundleRunner'
import { createBundleScheduler } from './bundling/createBundleScheduler'
import { createBundleSender, type RpcTransactionReceipt } from './bundling/createBundleSender'
import { requirePlainExecutor } from './bundling/requirePlainExecutor'
import { createGasPrices } from './gasPrices'
import { checkMempoolRules } from './mempool/checkMempoolRules'
import { describeExpired, findExpired } from './mempool/findExpired'
import { Mempool, type MempoolEntry } from './mempool/mempool'
import { recoverMempool } from './mempool/recoverMempool'
import { Reputation, type ReputationEntry } from './mempool/reputation'
import { recordAccepted, recordMined, recordRejectedAtBundling } from './mempool/reputationAccounting'
import { createFinishWaiters } from './receipts/createFinishWaiters'
import {
  createUserOperationQueries,
  type UserOperationStatusResult,
} from './receipts/createUserOperationQueries'
import { createRevertReasonDecoder } from './receipts/decodeRevertReasons'
import { recoverMinedOperations } from './records/recoverMinedOperations'
import { createUserOperationRecords } from './records/userOperationRecords'

/** The timeline note of an accepted operation: how its validation was checked against ERC-7562. */
const RULES_NOTES: Record<MempoolEntry['rulesCheckedBy'], string> = {
  native: "ERC-7562 rules checked on the node's built-in traces",
  javascript: 'ERC-7562 rules checked with the JavaScript tracer',
  none: 'unsafe mode: ERC-7562 rules not checked',
}

export type { BundlerOptions, BundlingMode, ReceiptFormat } from './bundlerOptions'
export { defaultBundlerOptions } from './bundlerOptions'
export type { UserOperationStatusResult } from './receipts/createUserOperationQueries'

export type CreateBundlerParameters = {
  chain: Chain
  store: Store
  events?: EventBus
  log: Logger
  options?: Partial<BundlerOptions>
  /**
   * Live settings (console or flags): `unsafe` is read for every operation; a `settings.changed` event
   * switches the bundling mode. Without them `options.safeMode` / `options.bundlingMode` apply.
   */
  settings?: { readonly unsafe: boolean; readonly bundlingMode: BundlingMode }
  /** The EntryPoints to serve (default: every version whose EntryPoint the chain has). */
  entryPoints?: EntryPoints
  /** Told of each bundle mined, before its operations are (the paymaster counts spending from it). */
  onBundleMined?: (receipt: RpcTransactionReceipt) => void
  /**
   * In a service of several chains: the folder of this chain's history of mined operations, and the record numbers
   * the chains' logs share; the bundler's log then holds this chain's records only. Without it (one chain) the log
   * holds the whole document's records, and the history is the data folder's `history/`.
   */
  records?: { historyDir: string; sequence: RecordSequence }
}

export type SendUserOperationParameters = {
  /** The operation as the client sent it: parsed with the schema of `entryPoint`'s version. */
  userOperation: unknown
  entryPoint: Address
  /** `validation_and_execution` also simulates the call phase and rejects a reverting one (-32521). */
  simulationType?: 'validation' | 'validation_and_execution'
  dappId?: string | null
  /** Shape of the receipt its client reads (the Biconomy SDK sends params[2]). */
  receiptFormat?: ReceiptFormat
}

export type BundlerEstimateParameters = {
  /** The partial operation as the client sent it. */
  userOperation: unknown
  entryPoint: Address
  stateOverride?: RpcStateOverride
}

export type Bundler = {
  /** The EntryPoints served, one lane (mempool, reputation, bundling) each; a bundle never mixes versions. */
  readonly entryPoints: EntryPoints
  readonly chainId: number
  readonly userOperations: UserOperationLog
  sendUserOperation: (params: SendUserOperationParameters) => Promise<Hex>
  /** The estimate in the RPC shape of the EntryPoint's version. */
  estimateUserOperationGas: (params: BundlerEstimateParameters) => Promise<Record<string, unknown>>
  getUserOperationReceipt: (userOpHash: Hex) => Promise<unknown | null>
  getUserOperationByHash: (userOpHash: Hex) => Promise<unknown | null>
  getUserOperationStatus: (userOpHash: Hex) => Promise<UserOperationStatusResult>
  /**
   * opstation_traceUserOperation: the explanation of an operation the service has seen (kept with its history once
   * traced: a reverted one in the background once mined, any other on first demand).
   */
  traceUserOperation: (userOpHash: Hex) => Promise<Explanation>
  /** opstation_simulateUserOperation: the explanation of an operation not sent, traced against the latest block. */
  simulateUserOperation: (params: SimulateUserOperationParameters) => Promise<Explanation>
  gasFeeValues: () => Promise<GasFees>
  bundlingMode: () => BundlingMode
  setBundlingMode: (mode: BundlingMode) => void
  /** Changes the settings that apply live (debug_bundler_setConfiguration); answers all of them. */
  configure: (patch: Partial<LiveConfiguration>) => LiveConfiguration
  /** Sends what is pending now, one bundle per EntryPoint (waits for bundles already under way first). */
  sendBundleNow: () => Promise<BundleResult | null>
  /** The pending operations of one EntryPoint, or of all. */
  dumpMempool: (entryPoint?: Address) => Record<string, unknown>[]
  /** Drops every pending operation and clears reputation. */
  clearState: () => void
  /** Drops every pending operation (reputation stays). */
  clearMempool: () => void
  /** One standard chain request passed to the node (see methods/forwardToNode.ts for which). */
  forwardToNode: (method: string, params: unknown[]) => Promise<unknown>
  /** An entity's stake on an EntryPoint, and whether it counts as staked for ERC-7562 (minStake, minUnstakeDelay). */
  getStakeStatus: (
    address: Address,
    entryPoint: Address,
  ) => Promise<{ stakeInfo: { addr: Address; stake: bigint; unstakeDelaySec: number }; isStaked: boolean }>
  setReputation: (
    entries: { address: Address; opsSeen: number; opsIncluded: number }[],
    entryPoint?: Address,
  ) => void
  dumpReputation: (entryPoint?: Address) => ReputationEntry[]
  clearReputation: () => void
  /** Stops bundling and writes the records. */
  close: () => Promise<void>
}

/** The bundler settings that apply to the next operation or bundle when changed. */
export type LiveConfiguration = Pick<
  BundlerOptions,
  | 'bundlingMode'
  | 'maxPendingPerUnstakedSender'
  | 'minStake'
  | 'minUnstakeDelay'
  | 'nonceGapWaitMs'
  | 'receiptWaitMs'
>

/** One EntryPoint's part of the bundler: its mempool, reputation, nonces, records and bundling. */
type Lane = {
  entryPoint: EntryPointModule
  mempool: Mempool
  reputation: Reputation
  records: ReturnType<typeof createUserOperationRecords>
  nonces: ReturnType<typeof createNonceTracker>
  runner: ReturnType<typeof createBundleRunner>
  scheduler: ReturnType<typeof createBundleScheduler>
  /** Marks an operation that left the mempool as dropped, with the reason (the EntryPoint's AAxx when it has one). */
  recordDropped: (entry: MempoolEntry, reason: string) => void
}

/**
 * The bundler: admission (field checks, simulation, ERC-7562 rules in safe mode, mempool rules), bundling
 * (auto / interval / manual), receipts and the record of every operation, for every EntryPoint version the chain
 * has. Each EntryPoint is a lane with its own mempool, reputation and bundles (a bundle never mixes versions);
 * the lanes share the executor (one transaction at a time, one nonce sequence), the gas prices and the records.
 * Everything that differs between versions goes through the lane's EntryPoint module (entryPoint/<version>/).
 */
export function createBundler({
  chain,
  store,
  events,
  log,
  options: overrides,
  settings,
  entryPoints = createEntryPoints((module) => listServedEntryPoints(chain).includes(module)),
  onBundleMined,
  records: shared,
}: CreateBundlerParameters): Bundler {
  const options: BundlerOptions = { ...defaultBundlerOptions, ...overrides }
  const isSafeMode = () => (settings ? !settings.unsafe : options.safeMode)
  const finishWaiters = createFinishWaiters()
  const gasPrices = createGasPrices(chain.publicClient)
  // Mined operations' receipts, and records older than the store document's, outlive the chain's history.
  const history = openUserOperationHistory({
    dir: shared?.historyDir ?? join(dirname(store.path), 'history'),
    legacyChainId: chain.chainId,
    onError: (err) => log.error({ err }, 'could not read or write the UserOperation history'),
  })
  const userOperations = openUserOperationLog({
    store,
    history,
    chainNow: () => chain.clock.now(),
    ...(shared ? { chainId: chain.chainId, sequence: shared.sequence } : {}),
    onError: (err) => log.error({ err }, 'could not write UserOperation records'),
  })
  const explainContext = { chain, entryPoints, store }
  const explanations = createExplanationKeeper({
    context: { ...explainContext, userOperations },
    onError: (err, userOpHash) =>
      log.warn({ err, userOpHash }, 'could not explain a reverted or rejected UserOperation'),
  })
  const lanes: Lane[] = []
  const decodeRevertReasons = createRevertReasonDecoder(explainContext)
  const queries = createUserOperationQueries({
    chain,
    entryPoints,
    userOperations,
    gasPrices,
    async waitForMining(record) {
      const lane = lanes.find((l) => l.entryPoint.address.toLowerCase() === record.entryPoint.toLowerCase())
      const minedSoon = record.status === 'submitted' || lane?.scheduler.mode() === 'auto'
      if (minedSoon && options.receiptWaitMs > 0)
        await finishWaiters.waitForFinish(record.userOpHash, options.receiptWaitMs)
    },
  })

  const maxBundleGas = async () => {
    const { gasLimit } = await gasPrices.latestBlock()
    return (gasLimit * 9n) / 10n
  }
  // One executor, one nonce sequence: the lanes' bundle transactions go out one at a time.
  const executorSender = createBundleSender({
    chain,
    gasFees: () => gasPrices.gasFeeValues(),
    receiptTimeoutMs: options.receiptTimeoutMs,
    onMined: (receipt, offered) => {
      gasPrices.observeMinedTransaction(receipt, offered)
      onBundleMined?.(receipt)
    },
    log,
  })
  const oneAtATime = createConcurrencyLimit(1)
  const sender: typeof executorSender = {
    send: (params, onSubmitted) => oneAtATime(() => executorSender.send(params, onSubmitted)),
    resync: executorSender.resync,
  }

  const createLane = (entryPoint: EntryPointModule): Lane => {
    const mempool = new Mempool()
    const reputation = new Reputation()
    const nonces = createNonceTracker({ chain, mempool, entryPoint: entryPoint.address })
    const records = createUserOperationRecords({
      userOperations,
      chainId: chain.chainId,
      entryPoint,
      events,
      isPending: (userOpHash) => mempool.get(userOpHash) !== undefined,
      onFinished: (userOpHash) => {
        finishWaiters.finished(userOpHash)
        explanations.finished(userOpHash)
      },
    })
    const recordDropped = (entry: MempoolEntry, reason: string) =>
      records.setStatus(
        entry.userOpHash,
        'dropped',
        (r) => {
          r.failure = { code: Erc7769Code.simulateValidation, aaCode: readAaCode(reason), reason }
        },
        reason,
      )
    const runner = createBundleRunner({
      chain,
      entryPoint,
      mempool,
      sender,
      maxBundleOperations: options.maxBundleOperations,
      maxBundleGas,
      log,
      hooks: {
        onDropped: recordDropped,
        onSubmitted(entries, transactionHash) {
          for (const entry of entries) {
            records.setStatus(entry.userOpHash, 'submitted', (r) => {
              r.transactionHash = transactionHash
            })
          }
        },
        decodeRevertReasons,
        onMined(entry, outcome, receipt) {
          queries.rememberReceipt(receipt)
          nonces.recordMined(entry.userOperation)
          records.recordMined(entry.userOpHash, outcome, receipt)
          recordMined(reputation, entry)
        },
        onRejected: (entry, reason, failure) => recordRejectedAtBundling(reputation, entry, reason, failure),
        onSendFailed(entries, error) {
          if (entries.length > 0)
            log.warn(
              { err: (error as Error).message, ops: entries.length, entryPoint: entryPoint.version },
              'operations back in the mempool',
            )
          sender.resync()
        },
      },
    })
    const scheduler = createBundleScheduler({
      runner,
      hasPending: () => mempool.hasPending(),
      mode: settings?.bundlingMode ?? options.bundlingMode,
      bundleIntervalMs: options.bundleIntervalMs,
      autoBundleDelayMs: options.autoBundleDelayMs,
      autoBundleGatherMs: options.autoBundleGatherMs,
      log,
    })
    return { entryPoint, mempool, reputation, records, nonces, runner, scheduler, recordDropped }
  }
  for (const entryPoint of entryPoints.list) lanes.push(createLane(entryPoint))
  // Checked at start too, so an executor that could never bundle there is told at once, not at the first bundle.
  if (entryPoints.list.some((entryPoint) => entryPoint.bundlesFromPlainEoa))
    requirePlainExecutor(chain).catch((err) => {
      if (!isNodeUnreachable(err)) log.error((err as Error).message)
    })

  const laneFor = (address: Address): Lane => {
    const module = entryPoints.require(address)
    const lane = lanes.find((l) => l.entryPoint === module)
    if (!lane) throw new Error(`no lane for EntryPoint ${address}`)
    return lane
  }
  const lanesFor = (address: Address | undefined): Lane[] => (address ? [laneFor(address)] : lanes)

  /** Drops every pending operation of every EntryPoint; their records say which debug method cleared them. */
  const dropPending = (by: string) => {
    for (const { mempool, records } of lanes) {
      for (const entry of mempool.entries()) {
        if (entry.state !== 'pending') continue
        mempool.remove(entry.userOpHash)
        records.setStatus(entry.userOpHash, 'dropped', (r) => {
          r.failure = { code: RpcCode.internalError, aaCode: null, reason: `mempool cleared (${by})` }
        })
      }
    }
  }

  // A restarted anvil reloads its last state dump, a node back from an outage may not have mined a bundle sent just
  // before it, a reset node starts over: the executor's nonce may be off our counter. What waits in the mempool is
  // bundled (simulated first: an operation that no longer validates is dropped with its reason).
  const stopChainEvents = chain.onEvent((event) => {
    // While the node is away no fee is answered from the cache: the fee calls refuse with the outage as every other.
    if (
      event.type === 'chain.exited' ||
      event.type === 'chain.unreachable' ||
      event.type === 'chain.wrongChain' ||
      event.type === 'chain.recovering'
    ) {
      gasPrices.invalidate()
    }
    if (
      event.type === 'chain.restarted' ||
      event.type === 'chain.reachable' ||
      event.type === 'chain.recovered'
    ) {
      sender.resync()
      gasPrices.invalidate()
      for (const lane of lanes) lane.scheduler.scheduleAutoBundle()
    }
  })
  // The stack's snapshots, reverts and resets take the mempool, the records and the history with the chain.
  const unregisterStackPart = chain.stack.register(
    createBundlerStackPart({
      lanes,
      userOperations,
      history,
      forgetChainReads() {
        queries.forgetCached()
        sender.resync()
        gasPrices.invalidate()
      },
    }),
  )
  // Chain time moved past an operation's window: it can never be included, so it leaves the mempool now.
  const stopClock = chain.clock.onChange((now) => {
    for (const { mempool, recordDropped } of lanes)
      for (const entry of findExpired(mempool.entries(), now)) {
        if (entry.state !== 'pending') continue
        mempool.remove(entry.userOpHash)
        recordDropped(entry, describeExpired(entry, now))
      }
  })
  const stopListening = events?.on('settings.changed', (changed) => {
    for (const lane of lanes) {
      if (changed.bundlingMode !== lane.scheduler.mode())
        lane.scheduler.setMode(changed.bundlingMode as BundlingMode)
    }
  })
  const decayTimer = setInterval(() => {
    for (const lane of lanes) lane.reputation.decay()
  }, 3_600_000)
  decayTimer.unref?.()

  // After a restart (and a revert or a reset it was killed in, finished): first what the chain says was mined, then
  // what is left back into the mempool.
  const recovered = chain.stack.recovered()
  for (const lane of lanes) {
    void recovered
      .then(() =>
        recoverMinedOperations({
          chain,
          userOperations,
          records: lane.records,
          loadReceipt: queries.loadReceipt,
          log,
          decodeRevertReasons,
        }),
      )
      .catch((err) => log.warn({ err }, 'could not look for operations mined before a restart'))
      .then(() =>
        recoverMempool({
          entryPoint: lane.entryPoint,
          mempool: lane.mempool,
          userOperations,
          records: lane.records,
          loadReceipt: queries.loadReceipt,
          log,
          decodeRevertReasons,
        }),
      )
      .catch((err) => log.error({ err }, 'restart recovery failed'))
      .then(() => lane.scheduler.scheduleAutoBundle())
  }
  // Operations mined before the history of mined operations was kept (an older data folder): their receipts and
  // operations into it while the chain still holds them (it keeps its recent blocks' transactions only).
  void recovered
    .then(() =>
      queries.keepMissingHistory(
        store.data.userOperations.filter((r) => shared === undefined || r.chainId === chain.chainId),
      ),
    )
    .then((kept) => {
      if (kept > 0) log.info({ kept }, 'mined UserOperations from before the history was kept added to it')
    })
    .catch((err) => log.warn({ err }, 'could not add older mined UserOperations to the history'))

  return {
    entryPoints,
    chainId: chain.chainId,
    userOperations,

    async sendUserOperation({
      userOperation: raw,
      entryPoint: requested,
      dappId = null,
      receiptFormat = 'standard',
      simulationType,
    }) {
      const lane = laneFor(requested)
      const { entryPoint, mempool, reputation, records, nonces, scheduler } = lane
      const op = parseParam(entryPoint.userOperationSchema, raw, 'params[0]')
      const userOpHash = entryPoint.computeUserOpHash(op, chain.chainId).toLowerCase() as Hex
      // One admission per sender and nonce at a time: a second one waits, then is a duplicate or a replacement.
      const release = await nonces.beginAdmission(op)
      try {
        const entry = await admitUserOperation({
          chain,
          entryPoint,
          mempool,
          nonces,
          gasPrices,
          maxBundleGas,
          userOperation: op,
          userOpHash,
          dappId,
          simulateExecution:
            simulationType === 'validation_and_execution'
              ? (o, maxSimulationGas) => entryPoint.simulateExecution(chain, o, maxSimulationGas)
              : undefined,
          safeMode: isSafeMode(),
          stakeThresholds: options,
          nonceGapWaitMs: options.nonceGapWaitMs,
        })
        // Checked against the mempool as it is now and added at once: no other admission comes in between.
        checkMempoolRules({
          mempool,
          reputation,
          entry,
          replacing: mempool.findBySenderNonce(op.sender, op.nonce),
          maxPendingPerUnstakedSender: options.maxPendingPerUnstakedSender,
        })
        const replaced = mempool.add(entry)
        if (replaced)
          records.setStatus(replaced.userOpHash, 'replaced', () => {}, `replaced by ${userOpHash}`)
        recordAccepted(reputation, entry, replaced)
        records.addRecord(op, userOpHash, 'pending', {
          dappId,
          receiptFormat,
          note: entry.validated
            ? RULES_NOTES[entry.rulesCheckedBy]
            : 'accepted behind pending operations of its sender; validated when bundled',
        })
        nonces.mempoolChanged()
        scheduler.scheduleAutoBundle()
        return userOpHash
      } catch (err) {
        const explained = await explainRejection(explainContext, err, {
          entryPoint,
          userOperation: op,
        })
        records.recordRejection(op, userOpHash, explained, dappId, receiptFormat)
        // Simulated in the background once the error is answered, and kept with its record.
        explanations.finished(userOpHash)
        throw explained
      } finally {
        release()
      }
    },

    async estimateUserOperationGas({ userOperation, entryPoint: requested, stateOverride }) {
      const { entryPoint } = laneFor(requested)
      const [gasFees, block] = await Promise.all([gasPrices.gasFeeValues(), gasPrices.latestBlock()])
      try {
        return await entryPoint.estimateUserOperationGas({
          chain,
          userOperation,
          gasFees,
          stateOverride,
          maxSimulationGas: block.gasLimit,
        })
      } catch (err) {
        throw await explainRejection(explainContext, err, { entryPoint })
      }
    },

    getUserOperationReceipt: queries.getUserOperationReceipt,
    getUserOperationByHash: queries.getUserOperationByHash,
    getUserOperationStatus: queries.getUserOperationStatus,
    traceUserOperation: (userOpHash) => explanations.explain(userOpHash),
    simulateUserOperation: (params) => simulateUserOperation({ chain, entryPoints, store }, params),
    gasFeeValues: () => gasPrices.gasFeeValues(),
    bundlingMode: () => lanes[0]?.scheduler.mode() ?? options.bundlingMode,
    setBundlingMode(mode) {
      for (const lane of lanes) lane.scheduler.setMode(mode)
    },
    configure(patch) {
      const { bundlingMode, ...rest } = patch
      Object.assign(options, definedOnly(rest))
      if (bundlingMode) for (const lane of lanes) lane.scheduler.setMode(bundlingMode)
      return {
        bundlingMode: lanes[0]?.scheduler.mode() ?? options.bundlingMode,
        maxPendingPerUnstakedSender: options.maxPendingPerUnstakedSender,
        minStake: options.minStake,
        minUnstakeDelay: options.minUnstakeDelay,
        nonceGapWaitMs: options.nonceGapWaitMs,
        receiptWaitMs: options.receiptWaitMs,
      }
    },
    async sendBundleNow() {
      let first: BundleResult | null = null
      for (const lane of lanes) {
        await lane.runner.idle()
        const result = await lane.runner.bundleOnce()
        first ??= result
      }
      return first
    },
    dumpMempool: (entryPoint) =>
      lanesFor(entryPoint).flatMap((lane) =>
        lane.mempool.entries().map((e) => lane.entryPoint.toWire(e.userOperation)),
      ),
    clearState() {
      dropPending('debug_bundler_clearState')
      for (const { reputation } of lanes) reputation.clear()
    },
    clearMempool: () => dropPending('debug_bundler_clearMempool'),
    forwardToNode: (method, params) => requestRpc(chain.publicClient, method, params),
    async getStakeStatus(address, entryPoint) {
      const info = await getDepositInfo(chain, address, entryPoints.require(entryPoint).address)
      return {
        stakeInfo: { addr: address, stake: info.stake, unstakeDelaySec: info.unstakeDelaySec },
        isStaked: info.staked && countsAsStaked(info, options),
      }
    },
    setReputation(entries, entryPoint) {
      for (const lane of lanesFor(entryPoint)) lane.reputation.set(entries)
    },
    dumpReputation: (entryPoint) =>
      lanesFor(entryPoint ?? entryPoints.list[0]?.address).flatMap((l) => l.reputation.dump()),
    clearReputation() {
      for (const lane of lanes) lane.reputation.clear()
    },
    async close() {
      for (const lane of lanes) lane.scheduler.close()
      finishWaiters.close()
      stopListening?.()
      stopChainEvents()
      stopClock()
      unregisterStackPart()
      clearInterval(decayTimer)
      for (const lane of lanes) await lane.runner.idle().catch(() => {})
      await explanations.close()
      await userOperations.close()
    },
  }
}
