import { type Address, getAddress, type Hex, type RpcStateOverride } from 'viem'
import { computeUserOpHash } from '../chain/entryPoint/getUserOpHash'
import type { Chain, UserOperationV06 } from '../chain/types'
import { RpcError } from '../errors'
import type { EventBus } from '../events'
import { Erc7769Code, RpcCode } from '../jsonrpc/codes'
import type { Logger } from '../log'
import type { Store } from '../store/openStore'
import { openUserOperationLog, type UserOperationLog } from '../store/userOperations.repo'
import { admitUserOperation } from './admission/admitUserOperation'
import { createNonceTracker } from './admission/nonceTracker'
import {
  type BundlerOptions,
  type BundlingMode,
  defaultBundlerOptions,
  type ReceiptFormat,
} from './bundlerOptions'
import { type BundleResult, createBundleRunner } from './bundling/createBundleRunner'
import { createBundleScheduler } from './bundling/createBundleScheduler'
import { createBundleSender } from './bundling/createBundleSender'
import {
  type EstimateUserOperationGasReturnType,
  estimateUserOperationGas,
  type GasFees,
} from './estimation/estimateUserOperationGas'
import { createGasPrices } from './gasPrices'
import { Mempool, type MempoolEntry } from './mempool/mempool'
import { recoverMempool } from './mempool/recoverMempool'
import { Reputation, type ReputationEntry } from './mempool/reputation'
import { createFinishWaiters } from './receipts/createFinishWaiters'
import {
  createUserOperationQueries,
  type UserOperationStatusResult,
} from './receipts/createUserOperationQueries'
import { recoverMinedOperations } from './records/recoverMinedOperations'
import { applyOutcome, createUserOperationRecords } from './records/userOperationRecords'
import { readAaCode } from './userOperationErrors'
import { type PartialUserOperation, toWireUserOperation, type WireUserOperation } from './userOperationSchema'

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
}

export type SendUserOperationParameters = {
  userOperation: UserOperationV06
  entryPoint: Address
  /** `validation_and_execution` also simulates the call phase and rejects a reverting one (-32521). */
  simulationType?: 'validation' | 'validation_and_execution'
  dappId?: string | null
  /** Shape of the receipt its client reads (the Biconomy SDK sends params[2]). */
  receiptFormat?: ReceiptFormat
}

export type BundlerEstimateParameters = {
  userOperation: PartialUserOperation
  entryPoint?: Address
  stateOverride?: RpcStateOverride
  preparePaymasterAndData?: (userOperation: UserOperationV06) => Promise<Hex> | Hex
}

export type Bundler = {
  readonly entryPoint: Address
  readonly chainId: number
  readonly userOperations: UserOperationLog
  sendUserOperation: (params: SendUserOperationParameters) => Promise<Hex>
  estimateUserOperationGas: (params: BundlerEstimateParameters) => Promise<EstimateUserOperationGasReturnType>
  getUserOperationReceipt: (userOpHash: Hex) => Promise<unknown | null>
  getUserOperationByHash: (userOpHash: Hex) => Promise<unknown | null>
  getUserOperationStatus: (userOpHash: Hex) => Promise<UserOperationStatusResult>
  gasFeeValues: () => Promise<GasFees>
  bundlingMode: () => BundlingMode
  setBundlingMode: (mode: BundlingMode) => void
  /** Sends what is pending now (waits for a bundle already under way first). */
  sendBundleNow: () => Promise<BundleResult | null>
  dumpMempool: () => WireUserOperation[]
  /** Drops every pending operation and clears reputation. */
  clearState: () => void
  setReputation: (entries: { address: Address; opsSeen: number; opsIncluded: number }[]) => void
  dumpReputation: () => ReputationEntry[]
  clearReputation: () => void
  /** Stops bundling and writes the records. */
  close: () => Promise<void>
}

/**
 * The bundler: admission (field checks, simulation, ERC-7562 rules in safe mode, mempool rules), bundling
 * (auto / interval / manual), receipts and the record of every operation. One instance per chain. This file
 * wires the parts together: admission/ decides what enters the mempool, bundling/ turns it into handleOps
 * transactions, receipts/ answers clients, records/ keeps every operation's history.
 */
export function createBundler({
  chain,
  store,
  events,
  log,
  options: overrides,
  settings,
}: CreateBundlerParameters): Bundler {
  const options: BundlerOptions = { ...defaultBundlerOptions, ...overrides }
  const isSafeMode = () => (settings ? !settings.unsafe : options.safeMode)
  const entryPoint = chain.addresses.entryPoint
  const mempool = new Mempool()
  const finishWaiters = createFinishWaiters()
  const reputation = new Reputation()
  const nonces = createNonceTracker({ chain, mempool })
  const gasPrices = createGasPrices(chain.publicClient)
  const userOperations = openUserOperationLog({
    store,
    onError: (err) => log.error({ err }, 'could not write UserOperation records'),
  })
  const records = createUserOperationRecords({
    userOperations,
    entryPoint,
    events,
    isPending: (userOpHash) => mempool.get(userOpHash) !== undefined,
    onFinished: (userOpHash) => finishWaiters.finished(userOpHash),
  })
  const queries = createUserOperationQueries({
    chain,
    userOperations,
    gasPrices,
    async waitForMining(record) {
      const minedSoon = record.status === 'submitted' || scheduler.mode() === 'auto'
      if (minedSoon && options.receiptWaitMs > 0)
        await finishWaiters.waitForFinish(record.userOpHash, options.receiptWaitMs)
    },
  })

  const maxBundleGas = async () => {
    const { gasLimit } = await gasPrices.latestBlock()
    return (gasLimit * 9n) / 10n
  }
  const sender = createBundleSender({
    chain,
    gasFees: () => gasPrices.gasFeeValues(),
    receiptTimeoutMs: options.receiptTimeoutMs,
    onMined: (receipt, offered) => gasPrices.observeMinedTransaction(receipt, offered),
    log,
  })
  const runner = createBundleRunner({
    chain,
    mempool,
    sender,
    maxBundleOperations: options.maxBundleOperations,
    maxBundleGas,
    log,
    hooks: {
      onDropped(entry, reason) {
        records.setStatus(
          entry.userOpHash,
          'dropped',
          (r) => {
            r.failure = { code: Erc7769Code.simulateValidation, aaCode: readAaCode(reason), reason }
          },
          reason,
        )
      },
      onSubmitted(entries, transactionHash) {
        for (const entry of entries) {
          records.setStatus(entry.userOpHash, 'submitted', (r) => {
            r.transactionHash = transactionHash
          })
        }
      },
      onMined(entry, outcome, receipt) {
        queries.rememberReceipt(receipt)
        nonces.recordMined(entry.userOperation)
        records.setStatus(entry.userOpHash, outcome.success ? 'included' : 'failed', (r) =>
          applyOutcome(r, outcome, receipt),
        )
        if (entry.factory) reputation.recordIncluded(entry.factory)
        if (entry.paymaster) reputation.recordIncluded(entry.paymaster)
      },
      onSendFailed(entries, error) {
        if (entries.length > 0)
          log.warn({ err: (error as Error).message, ops: entries.length }, 'operations back in the mempool')
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

  // A restarted anvil reloads its last state dump: the executor's nonce may be behind our counter.
  const stopChainEvents = chain.onEvent((event) => {
    if (event.type === 'chain.restarted') {
      sender.resync()
      gasPrices.invalidate()
    }
  })
  const stopListening = events?.on('settings.changed', (changed) => {
    if (changed.bundlingMode !== scheduler.mode()) scheduler.setMode(changed.bundlingMode as BundlingMode)
  })
  const decayTimer = setInterval(() => reputation.decay(), 3_600_000)
  decayTimer.unref?.()

  // After a restart: first what the chain says was mined, then what is left back into the mempool.
  void recoverMinedOperations({ chain, userOperations, records, loadReceipt: queries.loadReceipt, log })
    .catch((err) => log.warn({ err }, 'could not look for operations mined before a restart'))
    .then(() =>
      recoverMempool({
        entryPoint,
        mempool,
        userOperations,
        records,
        loadReceipt: queries.loadReceipt,
        log,
      }),
    )
    .catch((err) => log.error({ err }, 'restart recovery failed'))
    .then(() => scheduler.scheduleAutoBundle())

  const assertEntryPoint = (address: Address | undefined) => {
    if (address && getAddress(address) !== getAddress(entryPoint)) {
      throw new RpcError(
        `EntryPoint ${address} is not supported; this bundler serves ${entryPoint} (v0.6)`,
        RpcCode.invalidParams,
      )
    }
  }

  return {
    entryPoint,
    chainId: chain.chainId,
    userOperations,

    async sendUserOperation({
      userOperation: op,
      entryPoint: requested,
      dappId = null,
      receiptFormat = 'standard',
      simulationType,
    }) {
      assertEntryPoint(requested)
      const userOpHash = computeUserOpHash(op, chain.chainId, entryPoint).toLowerCase() as Hex
      // One admission per sender and nonce at a time: a second one waits, then is a duplicate or a replacement.
      const release = await nonces.beginAdmission(op)
      try {
        const entry = await admitUserOperation({
          chain,
          mempool,
          reputation,
          nonces,
          gasPrices,
          maxBundleGas,
          userOperation: op,
          userOpHash,
          dappId,
          simulationType,
          safeMode: isSafeMode(),
          maxPendingPerUnstakedSender: options.maxPendingPerUnstakedSender,
          nonceGapWaitMs: options.nonceGapWaitMs,
        })
        const replaced = mempool.add(entry)
        if (replaced)
          records.setStatus(replaced.userOpHash, 'replaced', () => {}, `replaced by ${userOpHash}`)
        if (entry.factory) reputation.recordSeen(entry.factory)
        if (entry.paymaster) reputation.recordSeen(entry.paymaster)
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
        records.recordRejection(op, userOpHash, err, dappId, receiptFormat)
        throw err
      } finally {
        release()
      }
    },

    async estimateUserOperationGas({
      userOperation,
      entryPoint: requested,
      stateOverride,
      preparePaymasterAndData,
    }) {
      assertEntryPoint(requested)
      const [gasFees, block] = await Promise.all([gasPrices.gasFeeValues(), gasPrices.latestBlock()])
      return estimateUserOperationGas({
        chain,
        userOperation,
        gasFees,
        stateOverride,
        preparePaymasterAndData,
        maxSimulationGas: block.gasLimit,
      })
    },

    getUserOperationReceipt: queries.getUserOperationReceipt,
    getUserOperationByHash: queries.getUserOperationByHash,
    getUserOperationStatus: queries.getUserOperationStatus,
    gasFeeValues: () => gasPrices.gasFeeValues(),
    bundlingMode: scheduler.mode,
    setBundlingMode: scheduler.setMode,
    async sendBundleNow() {
      await runner.idle()
      return runner.bundleOnce()
    },
    dumpMempool: () => mempool.entries().map((e) => toWireUserOperation(e.userOperation)),
    clearState() {
      for (const entry of mempool.entries()) {
        if (entry.state !== 'pending') continue
        mempool.remove(entry.userOpHash)
        records.setStatus(entry.userOpHash, 'dropped', (r) => {
          r.failure = {
            code: RpcCode.internalError,
            aaCode: null,
            reason: 'mempool cleared (debug_bundler_clearState)',
          }
        })
      }
      reputation.clear()
    },
    setReputation: (entries) => reputation.set(entries),
    dumpReputation: () => reputation.dump(),
    clearReputation: () => reputation.clear(),
    async close() {
      scheduler.close()
      finishWaiters.close()
      stopListening?.()
      stopChainEvents()
      clearInterval(decayTimer)
      await runner.idle().catch(() => {})
      await userOperations.close()
    },
  }
}
