import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  type Hex,
  numberToHex,
  type RpcStateOverride,
} from 'viem'
import { entryPointAbi } from '../chain/abis/entryPoint'
import { getDepositInfo } from '../chain/entryPoint/getDepositInfo'
import { getNonce } from '../chain/entryPoint/getNonce'
import { computeUserOpHash } from '../chain/entryPoint/getUserOpHash'
import { requestRpc } from '../chain/node/requestRpc'
import { traceCall } from '../chain/node/traceCall'
import type { Chain, UserOperationV06 } from '../chain/types'
import { AppError, RpcError } from '../errors'
import type { EventBus } from '../events'
import { Erc7769Code, RpcCode } from '../jsonrpc/codes'
import type { Logger } from '../log'
import { decodeCallData } from '../policy/decodeCallData'
import type { Store } from '../store/openStore'
import type { UserOperationRecord, UserOperationStatus } from '../store/userOperationRecord'
import { openUserOperationLog, type UserOperationLog } from '../store/userOperations.repo'
import { type BundleResult, createBundleRunner } from './bundling/createBundleRunner'
import { createBundleSender, type RpcTransactionReceipt } from './bundling/createBundleSender'
import { parseBundleLogs, type UserOperationOutcome } from './bundling/parseBundleLogs'
import type { CallFrame } from './callFrame'
import {
  type EstimateUserOperationGasReturnType,
  estimateUserOperationGas,
  type GasFees,
  simulateExecution,
} from './estimation/estimateUserOperationGas'
import { createGasPrices } from './gasPrices'
import { bundleGasOf, isValidReplacement, Mempool, type MempoolEntry } from './mempool/mempool'
import { Reputation, type ReputationEntry, reputationParameters } from './mempool/reputation'
import {
  formatBiconomyReceipt,
  formatStandardReceipt,
  type UserOperationReceiptSource,
} from './receipts/formatUserOperationReceipt'
import {
  invalidFields,
  readAaCode,
  userOperationRejected,
  validationRulesBroken,
} from './userOperationErrors'
import {
  addressPrefix,
  fromWireUserOperation,
  type PartialUserOperation,
  toWireUserOperation,
  type WireUserOperation,
} from './userOperationSchema'
import { checkUserOperationFields } from './validation/checkUserOperationFields'
import { entryPointNonceSlot } from './validation/entryPointNonceSlot'
import { simulateValidationWithRules } from './validation/simulateValidationWithRules'

export type BundlingMode = 'auto' | 'interval' | 'manual'
export type ReceiptFormat = 'biconomy' | 'standard'

export type BundlerOptions = {
  /** Apply the ERC-7562 rules with a traced validation (default). False = `--unsafe`. */
  safeMode: boolean
  bundlingMode: BundlingMode
  /** Interval mode: milliseconds between bundles. */
  bundleIntervalMs: number
  /** Auto mode: how long to gather arriving operations before a bundle goes out. */
  autoBundleDelayMs: number
  maxBundleOperations: number
  /**
   * Pending operations one unstaked sender may have. ERC-7562 says 4; local testing often sends a sender's
   * nonces in parallel, so the default is higher.
   */
  maxPendingPerUnstakedSender: number
  /** A bundle transaction not mined after this long is replaced with higher fees. */
  receiptTimeoutMs: number
  /** How long an operation whose nonce follows a gap waits for the missing nonces to arrive. */
  nonceGapWaitMs: number
}

export const defaultBundlerOptions: BundlerOptions = {
  safeMode: true,
  bundlingMode: 'auto',
  bundleIntervalMs: 1000,
  autoBundleDelayMs: 2,
  maxBundleOperations: 64,
  maxPendingPerUnstakedSender: 16,
  receiptTimeoutMs: 30_000,
  nonceGapWaitMs: 2000,
}

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

export type UserOperationStatusResult =
  | { state: 'BUNDLER_MEMPOOL' }
  | { state: 'SUBMITTED'; transactionHash: Hex }
  | { state: 'CONFIRMED'; message: string; transactionHash: Hex; userOperationReceipt: unknown }
  | { state: 'FAILED'; message: string; transactionHash: Hex; userOperationReceipt: unknown }
  | { state: 'DROPPED_FROM_BUNDLER_MEMPOOL'; message: string }

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

const RECEIPT_CACHE_SIZE = 512
const SIMULATION_GAS = 30_000_000n

/**
 * The bundler: admission (field checks, simulation, ERC-7562 rules in safe mode, mempool rules), bundling
 * (auto / interval / manual), receipts and the record of every operation. One instance per chain.
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
  const reputation = new Reputation()
  const gasPrices = createGasPrices(chain.publicClient)
  const userOperations = openUserOperationLog({
    store,
    onError: (err) => log.error({ err }, 'could not write UserOperation records'),
  })
  const receipts = new Map<Hex, RpcTransactionReceipt>()
  const inFlight = new Map<string, Map<bigint, Promise<void>>>()
  const mempoolWaiters = new Set<() => void>()
  let mode = settings?.bundlingMode ?? options.bundlingMode
  let autoTimer: NodeJS.Timeout | undefined
  let intervalTimer: NodeJS.Timeout | undefined
  let closed = false

  const maxBundleGas = async () => {
    const { gasLimit } = await gasPrices.latestBlock()
    return (gasLimit * 9n) / 10n
  }
  const sender = createBundleSender({
    chain,
    gasFees: () => gasPrices.gasFeeValues(),
    receiptTimeoutMs: options.receiptTimeoutMs,
    log,
  })

  // ---- records and events -------------------------------------------------------------------------------
  const emit = (record: UserOperationRecord | undefined) => {
    if (!record || !events) return
    events.emit('userOperation.changed', {
      userOpHash: record.userOpHash,
      status: record.status,
      sender: record.sender,
      dappId: record.dappId,
      transactionHash: record.transactionHash,
      reason: record.failure?.reason ?? record.revertReason ?? undefined,
    })
  }
  const setStatus = (
    userOpHash: Hex,
    status: UserOperationStatus,
    change: (r: UserOperationRecord) => void = () => {},
    note?: string,
  ) =>
    emit(
      userOperations.change(
        userOpHash,
        (r) => {
          r.status = status
          change(r)
        },
        { status, note },
      ),
    )

  const newRecord = (
    op: UserOperationV06,
    userOpHash: Hex,
    status: UserOperationStatus,
    extra: {
      dappId: string | null
      receiptFormat: ReceiptFormat
      failure?: UserOperationRecord['failure']
      note?: string
    },
  ) => {
    const decoded = decodeCallData(op.callData, op.initCode)
    const record = userOperations.add({
      userOpHash,
      entryPoint,
      sender: op.sender,
      nonce: op.nonce.toString(),
      status,
      userOperation: toWireUserOperation(op),
      factory: addressPrefix(op.initCode),
      paymaster: addressPrefix(op.paymasterAndData),
      dappId: extra.dappId,
      calls:
        decoded.kind === 'calls'
          ? decoded.calls
              .slice(0, 16)
              .map((c) => ({ to: c.to, value: c.value.toString(), selector: c.selector }))
          : null,
      gas: {
        callGasLimit: op.callGasLimit.toString(),
        verificationGasLimit: op.verificationGasLimit.toString(),
        preVerificationGas: op.preVerificationGas.toString(),
        maxFeePerGas: op.maxFeePerGas.toString(),
        maxPriorityFeePerGas: op.maxPriorityFeePerGas.toString(),
      },
      actualGasUsed: null,
      actualGasCost: null,
      transactionHash: null,
      blockNumber: null,
      blockHash: null,
      logRange: null,
      revertReason: null,
      failure: extra.failure ?? null,
      receiptFormat: extra.receiptFormat,
      timeline: [{ status, at: new Date().toISOString(), ...(extra.note ? { note: extra.note } : {}) }],
    })
    emit(record)
  }

  // ---- bundling ------------------------------------------------------------------------------------------
  const runner = createBundleRunner({
    chain,
    mempool,
    sender,
    maxBundleOperations: options.maxBundleOperations,
    maxBundleGas,
    log,
    hooks: {
      onDropped(entry, reason) {
        setStatus(
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
          setStatus(entry.userOpHash, 'submitted', (r) => {
            r.transactionHash = transactionHash
          })
        }
      },
      onMined(entry, outcome, receipt) {
        rememberReceipt(receipt)
        const key = senderKey(entry.userOperation)
        const next = entry.userOperation.nonce + 1n
        if ((knownNonces.get(key) ?? -1n) < next) knownNonces.set(key, next)
        setStatus(entry.userOpHash, outcome.success ? 'included' : 'failed', (r) =>
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

  const rememberReceipt = (receipt: RpcTransactionReceipt) => {
    gasPrices.invalidate()
    receipts.set(receipt.transactionHash, receipt)
    if (receipts.size > RECEIPT_CACHE_SIZE) receipts.delete(receipts.keys().next().value as Hex)
  }

  const applyOutcome = (
    r: UserOperationRecord,
    outcome: UserOperationOutcome,
    receipt: RpcTransactionReceipt,
  ) => {
    r.actualGasUsed = outcome.actualGasUsed.toString()
    r.actualGasCost = outcome.actualGasCost.toString()
    r.transactionHash = receipt.transactionHash
    r.blockHash = receipt.blockHash
    r.blockNumber = Number(BigInt(receipt.blockNumber))
    r.logRange = outcome.logRange
    r.revertReason = outcome.revertReason
    r.userOperation = null
  }

  const scheduleAutoBundle = (delayMs = options.autoBundleDelayMs) => {
    if (mode !== 'auto' || closed || autoTimer) return
    autoTimer = setTimeout(() => {
      autoTimer = undefined
      void runner
        .drain()
        .catch((err) => log.error({ err }, 'bundling failed'))
        .finally(() => {
          if (hasPending()) scheduleAutoBundle(50)
        })
    }, delayMs)
  }
  const hasPending = () => mempool.hasPending()

  const applyMode = (next: BundlingMode) => {
    mode = next
    if (intervalTimer) clearInterval(intervalTimer)
    intervalTimer = undefined
    if (next === 'interval') {
      intervalTimer = setInterval(() => {
        void runner.bundleOnce().catch((err) => log.error({ err }, 'bundling failed'))
      }, options.bundleIntervalMs)
      intervalTimer.unref?.()
    }
    if (next === 'auto' && hasPending()) scheduleAutoBundle()
  }
  applyMode(mode)
  // A restarted anvil reloads its last state dump: the executor's nonce may be behind our counter.
  const stopChainEvents = chain.onEvent((event) => {
    if (event.type === 'chain.restarted') {
      sender.resync()
      gasPrices.invalidate()
    }
  })
  const stopListening = events?.on('settings.changed', (changed) => {
    if (changed.bundlingMode !== mode) applyMode(changed.bundlingMode as BundlingMode)
  })

  const decayTimer = setInterval(() => reputation.decay(), 3_600_000)
  decayTimer.unref?.()

  // ---- admission -----------------------------------------------------------------------------------------
  const senderKey = (op: UserOperationV06) => `${op.sender.toLowerCase()}:${op.nonce >> 64n}`

  const hasLowerNonce = (op: UserOperationV06) => {
    for (const n of inFlight.get(senderKey(op))?.keys() ?? []) if (n < op.nonce) return true
    return mempool.hasLowerNonce(op.sender, op.nonce)
  }
  /**
   * The EntryPoint's next nonce per sender and key as last seen (read from the node, or from our own mined
   * bundles). Nonces only grow, so a stale value is too low: a gap check that fails on it reads the node again.
   */
  const knownNonces = new Map<string, bigint>()
  const readNonce = async (op: UserOperationV06, fresh: boolean) => {
    const key = senderKey(op)
    const known = knownNonces.get(key)
    if (known !== undefined && !fresh) return known
    const value = await getNonce(chain, op.sender, op.nonce >> 64n)
    if (knownNonces.size > 50_000) knownNonces.clear()
    knownNonces.set(key, value)
    return value
  }
  const waitForLowerInFlight = async (op: UserOperationV06) => {
    for (;;) {
      const lower = [...(inFlight.get(senderKey(op))?.entries() ?? [])]
        .filter(([n]) => n < op.nonce)
        .map(([, p]) => p)
      if (lower.length === 0) return
      await Promise.all(lower)
    }
  }
  const waitForMempoolChange = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        mempoolWaiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      mempoolWaiters.add(done)
    })

  type Simulated = Awaited<ReturnType<typeof simulateValidationWithRules>> & { validated: true }
  type Admission = Simulated | { validated: false }

  const simulate = async (op: UserOperationV06, stateOverride?: RpcStateOverride): Promise<Simulated> => ({
    ...(await simulateValidationWithRules({
      chain,
      userOperation: op,
      safeMode: isSafeMode(),
      stateOverride,
      gas: SIMULATION_GAS,
    })),
    validated: true,
  })

  /**
   * Simulates the operation; when its nonce follows operations of the same sender that are still pending,
   * simulates with the EntryPoint's nonce overridden to its own (and, if the account is only deployed by an
   * earlier pending operation, accepts it for validation at bundling time).
   */
  const simulateNonceAware = async (op: UserOperationV06): Promise<Admission> => {
    if (!hasLowerNonce(op)) {
      try {
        return await simulate(op)
      } catch (err) {
        if (!isAaError(err, 'AA25') || !hasLowerNonce(op)) throw err
      }
    }
    const key = op.nonce >> 64n
    const deadline = Date.now() + options.nonceGapWaitMs
    let onChain: bigint
    let fresh = false
    for (;;) {
      await waitForLowerInFlight(op)
      onChain = await readNonce(op, fresh)
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
      await waitForMempoolChange(deadline - Date.now())
    }
    if (op.nonce <= onChain) return simulate(op)
    const stateOverride: RpcStateOverride = {
      [entryPoint]: {
        stateDiff: {
          [entryPointNonceSlot(op.sender, key)]: numberToHex(op.nonce & ((1n << 64n) - 1n), { size: 32 }),
        },
      },
    }
    try {
      return await simulate(op, stateOverride)
    } catch (err) {
      const deploysEarlier = mempool.entriesOfSender(op.sender).some((e) => e.userOperation.initCode !== '0x')
      if (isAaError(err, 'AA20') && deploysEarlier) return { validated: false }
      throw err
    }
  }

  const admit = async (
    op: UserOperationV06,
    userOpHash: Hex,
    dappId: string | null,
    simulationType: SendUserOperationParameters['simulationType'],
  ): Promise<MempoolEntry> => {
    const block = await gasPrices.latestBlock()
    checkUserOperationFields({
      userOperation: op,
      baseFeePerGas: block.baseFeePerGas,
      maxOperationGas: await maxBundleGas(),
    })
    if (mempool.get(userOpHash)) throw invalidFields(`UserOperation ${userOpHash} is already in the mempool`)
    const existing = mempool.findBySenderNonce(op.sender, op.nonce)
    if (existing?.state === 'bundling') {
      throw invalidFields(
        `A UserOperation with sender ${op.sender} and nonce ${op.nonce} is already being bundled`,
      )
    }
    if (existing && !isValidReplacement(existing.userOperation, op)) {
      throw invalidFields(
        'replacement UserOperation underpriced: raise both maxFeePerGas and maxPriorityFeePerGas by at least 10%',
      )
    }
    const factory = addressPrefix(op.initCode)
    const paymaster = addressPrefix(op.paymasterAndData)
    for (const entity of [factory, paymaster]) {
      if (!entity) continue
      const status = reputation.status(entity)
      if (status === 'banned')
        throw new RpcError(`${entity} is banned by the bundler's reputation rules`, Erc7769Code.reputation)
      if (
        status === 'throttled' &&
        mempool.countByEntity(entity) >= reputationParameters.throttledEntityMempoolCount
      ) {
        throw new RpcError(
          `${entity} is throttled: too many of its operations are pending`,
          Erc7769Code.reputation,
        )
      }
    }

    const admission = await simulateNonceAware(op)
    let senderStaked = false
    let prefund = bundleGasOf(op) * op.maxFeePerGas
    if (admission.validated) {
      const { result, violations } = admission
      if (violations.length > 0) {
        throw validationRulesBroken(
          violations.map((v) => `${v.message} [${v.rule}]`),
          [...new Set(violations.map((v) => v.rule))],
        )
      }
      if (result.returnInfo.sigFailed) {
        throw userOperationRejected(paymaster ? await signatureFailure(op) : 'AA24 signature error')
      }
      const now = BigInt(Math.max(Math.floor(Date.now() / 1000), Number(block.timestamp)))
      const { validAfter, validUntil } = result.returnInfo
      if (BigInt(validAfter) > now) {
        throw new RpcError(
          `${paymaster ? 'AA32 paymaster' : 'AA22'} expired or not due: valid only after ${validAfter}`,
          Erc7769Code.expiresShortly,
        )
      }
      if (validUntil !== 0 && BigInt(validUntil) < now + 30n) {
        throw new RpcError(
          `${paymaster ? 'AA32 paymaster' : 'AA22'} expired or not due: validUntil ${validUntil} is less than 30 s away`,
          Erc7769Code.expiresShortly,
        )
      }
      senderStaked = result.senderInfo.stake > 0n && result.senderInfo.unstakeDelaySec >= 86_400n
      prefund = result.returnInfo.prefund
      if (simulationType === 'validation_and_execution') {
        await simulateExecution({ chain, userOperation: op, maxSimulationGas: block.gasLimit })
      }
    }
    if (
      !existing &&
      !senderStaked &&
      mempool.countBySender(op.sender) >= options.maxPendingPerUnstakedSender
    ) {
      throw new RpcError(
        `Sender ${op.sender} already has ${options.maxPendingPerUnstakedSender} pending UserOperations (the limit for an unstaked sender)`,
        Erc7769Code.reputation,
      )
    }
    if (paymaster) {
      const { deposit } = await getDepositInfo(chain, paymaster)
      const needed =
        mempool.pendingPrefundOf(paymaster) -
        (existing?.paymaster === paymaster ? existing.prefund : 0n) +
        prefund
      if (deposit < needed) {
        throw new RpcError(
          `Paymaster ${paymaster} deposit too low: ${deposit} wei in the EntryPoint, ${needed} wei needed for its pending operations`,
          Erc7769Code.paymasterDepositTooLow,
        )
      }
    }
    return {
      userOpHash,
      userOperation: op,
      entryPoint,
      state: 'pending',
      validated: admission.validated,
      prefund,
      factory,
      paymaster,
      senderStaked,
      dappId,
      addedAt: Date.now(),
      attempts: 0,
    }
  }

  /** Which signature failed when a paymaster is present: the account's validationData, read from a trace. */
  const signatureFailure = async (op: UserOperationV06): Promise<string> => {
    try {
      const top = await traceCall<CallFrame>(
        chain,
        {
          to: entryPoint,
          data: encodeFunctionData({ abi: entryPointAbi, functionName: 'simulateValidation', args: [op] }),
          gas: SIMULATION_GAS,
        },
        { tracer: 'callTracer' },
      )
      const accountFrame = top.calls?.find((f) => f.to?.toLowerCase() === op.sender.toLowerCase())
      const validationData = accountFrame?.output ? BigInt(accountFrame.output.slice(0, 66)) : 0n
      return (validationData & ((1n << 160n) - 1n)) === 1n ? 'AA24 signature error' : 'AA34 signature error'
    } catch {
      return 'AA24 signature error (or AA34 paymaster signature error)'
    }
  }

  const recordRejection = (
    op: UserOperationV06,
    userOpHash: Hex,
    err: unknown,
    dappId: string | null,
    receiptFormat: ReceiptFormat,
  ) => {
    if (!(err instanceof AppError)) return
    const data = (err.data ?? {}) as { rules?: string[] }
    const failure = {
      code: err.rpcCode,
      aaCode: readAaCode(err.shortMessage),
      reason: err.shortMessage,
      ...(data.rules ? { rules: data.rules } : {}),
    }
    if (mempool.get(userOpHash)) return
    newRecord(op, userOpHash, 'rejected', { dappId, receiptFormat, failure, note: err.shortMessage })
  }

  // ---- receipts ------------------------------------------------------------------------------------------
  const loadReceipt = async (transactionHash: Hex) => {
    const cached = receipts.get(transactionHash)
    if (cached) return cached
    const receipt = await requestRpc<RpcTransactionReceipt | null>(
      chain.publicClient,
      'eth_getTransactionReceipt',
      [transactionHash],
    )
    if (receipt?.blockNumber) rememberReceipt(receipt)
    return receipt
  }
  const receiptSource = async (record: UserOperationRecord): Promise<UserOperationReceiptSource | null> => {
    if (
      (record.status !== 'included' && record.status !== 'failed') ||
      !record.transactionHash ||
      !record.logRange
    )
      return null
    const receipt = await loadReceipt(record.transactionHash as Hex)
    if (!receipt) return null
    const latest = await gasPrices.latestBlock()
    const mined = BigInt(receipt.blockNumber)
    return {
      userOpHash: record.userOpHash as Hex,
      entryPoint: record.entryPoint as Address,
      sender: record.sender as Address,
      nonce: BigInt(record.nonce),
      paymaster: record.paymaster as Address | null,
      success: record.status === 'included',
      actualGasCost: BigInt(record.actualGasCost ?? '0'),
      actualGasUsed: BigInt(record.actualGasUsed ?? '0'),
      revertReason: record.revertReason,
      logRange: record.logRange,
      receipt,
      latestBlockNumber: latest.number > mined ? latest.number : mined,
    }
  }
  const minedOperations = new Map<Hex, UserOperationV06>()
  const readMinedOperation = async (record: UserOperationRecord): Promise<UserOperationV06 | null> => {
    if (record.userOperation) return fromWireUserOperation(record.userOperation as WireUserOperation)
    const cached = minedOperations.get(record.userOpHash as Hex)
    if (cached) return cached
    if (!record.transactionHash) return null
    const tx = await requestRpc<{ input: Hex } | null>(chain.publicClient, 'eth_getTransactionByHash', [
      record.transactionHash,
    ])
    if (!tx) return null
    const { args } = decodeFunctionData({ abi: entryPointAbi, data: tx.input })
    const ops = (args?.[0] ?? []) as readonly UserOperationV06[]
    const op = ops.find((o) => computeUserOpHash(o, chain.chainId, entryPoint) === record.userOpHash)
    if (op) minedOperations.set(record.userOpHash as Hex, op)
    if (minedOperations.size > RECEIPT_CACHE_SIZE)
      minedOperations.delete(minedOperations.keys().next().value as Hex)
    return op ?? null
  }

  // ---- restart recovery ----------------------------------------------------------------------------------
  const recover = async () => {
    for (const record of userOperations.unfinished()) {
      try {
        if (record.transactionHash) {
          const receipt = await loadReceipt(record.transactionHash as Hex)
          if (receipt) {
            const outcome = parseBundleLogs(receipt.logs, entryPoint).get(record.userOpHash as Hex)
            if (outcome) {
              setStatus(
                record.userOpHash as Hex,
                outcome.success ? 'included' : 'failed',
                (r) => applyOutcome(r, outcome, receipt),
                'found mined after a restart',
              )
              continue
            }
          }
        }
        if (!record.userOperation) {
          setStatus(record.userOpHash as Hex, 'dropped', (r) => {
            r.failure = { code: RpcCode.internalError, aaCode: null, reason: 'lost when the service stopped' }
          })
          continue
        }
        const op = fromWireUserOperation(record.userOperation as WireUserOperation)
        mempool.add({
          userOpHash: record.userOpHash as Hex,
          userOperation: op,
          entryPoint,
          state: 'pending',
          validated: false,
          prefund: bundleGasOf(op) * op.maxFeePerGas,
          factory: addressPrefix(op.initCode),
          paymaster: addressPrefix(op.paymasterAndData),
          senderStaked: false,
          dappId: record.dappId,
          addedAt: Date.parse(record.createdAt) || Date.now(),
          attempts: 0,
        })
        setStatus(record.userOpHash as Hex, 'pending', () => {}, 'back in the mempool after a restart')
      } catch (err) {
        log.warn({ err, userOpHash: record.userOpHash }, 'could not recover a UserOperation after a restart')
      }
    }
    scheduleAutoBundle()
  }
  void recover()

  // ---- public API ----------------------------------------------------------------------------------------
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
      const key = senderKey(op)
      let release!: () => void
      const done = new Promise<void>((resolve) => {
        release = resolve
      })
      let nonces = inFlight.get(key)
      if (!nonces) {
        nonces = new Map()
        inFlight.set(key, nonces)
      }
      if (nonces.has(op.nonce)) {
        // The same nonce is being validated right now: wait for it, then decide (duplicate or replacement).
        await nonces.get(op.nonce)
        return this.sendUserOperation({
          userOperation: op,
          entryPoint: requested,
          dappId,
          receiptFormat,
          simulationType,
        })
      }
      nonces.set(op.nonce, done)
      try {
        const entry = await admit(op, userOpHash, dappId, simulationType)
        const replaced = mempool.add(entry)
        if (replaced) setStatus(replaced.userOpHash, 'replaced', () => {}, `replaced by ${userOpHash}`)
        if (entry.factory) reputation.recordSeen(entry.factory)
        if (entry.paymaster) reputation.recordSeen(entry.paymaster)
        newRecord(op, userOpHash, 'pending', {
          dappId,
          receiptFormat,
          note: entry.validated
            ? undefined
            : 'accepted behind pending operations of its sender; validated when bundled',
        })
        for (const wake of [...mempoolWaiters]) wake()
        scheduleAutoBundle()
        return userOpHash
      } catch (err) {
        recordRejection(op, userOpHash, err, dappId, receiptFormat)
        throw err
      } finally {
        nonces.delete(op.nonce)
        if (nonces.size === 0) inFlight.delete(key)
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

    async getUserOperationReceipt(userOpHash) {
      const record = userOperations.get(userOpHash)
      if (!record) return null
      const source = await receiptSource(record)
      if (!source) return null
      return record.receiptFormat === 'biconomy'
        ? formatBiconomyReceipt(source)
        : formatStandardReceipt(source)
    },

    async getUserOperationByHash(userOpHash) {
      const record = userOperations.get(userOpHash)
      if (!record || (record.status !== 'included' && record.status !== 'failed') || !record.transactionHash)
        return null
      const op = await readMinedOperation(record)
      if (!op) return null
      const wire = toWireUserOperation(op)
      return {
        ...wire,
        userOperation: wire,
        entryPoint: record.entryPoint,
        transactionHash: record.transactionHash,
        blockHash: record.blockHash,
        blockNumber: `0x${(record.blockNumber ?? 0).toString(16)}`,
      }
    },

    async getUserOperationStatus(userOpHash) {
      const record = userOperations.get(userOpHash)
      if (!record || record.status === 'rejected') {
        throw new RpcError(
          `UserOpHash: ${userOpHash} not found for chainId: ${chain.chainId}`,
          RpcCode.notFound,
          {
            httpStatus: 200,
          },
        )
      }
      switch (record.status) {
        case 'pending':
          return { state: 'BUNDLER_MEMPOOL' }
        case 'submitted':
          return { state: 'SUBMITTED', transactionHash: record.transactionHash as Hex }
        case 'included':
        case 'failed': {
          const source = await receiptSource(record)
          const userOperationReceipt = source ? formatBiconomyReceipt(source) : null
          return record.status === 'included'
            ? {
                state: 'CONFIRMED',
                message: 'Transaction is confirmed',
                transactionHash: record.transactionHash as Hex,
                userOperationReceipt,
              }
            : {
                state: 'FAILED',
                message: `UserOperation reverted during execution${record.revertReason ? `: ${record.revertReason}` : ''}`,
                transactionHash: record.transactionHash as Hex,
                userOperationReceipt,
              }
        }
        default:
          return { state: 'DROPPED_FROM_BUNDLER_MEMPOOL', message: record.failure?.reason ?? record.status }
      }
    },

    gasFeeValues: () => gasPrices.gasFeeValues(),
    bundlingMode: () => mode,
    setBundlingMode: applyMode,
    async sendBundleNow() {
      await runner.idle()
      return runner.bundleOnce()
    },
    dumpMempool: () => mempool.entries().map((e) => toWireUserOperation(e.userOperation)),
    clearState() {
      for (const entry of mempool.entries()) {
        if (entry.state !== 'pending') continue
        mempool.remove(entry.userOpHash)
        setStatus(entry.userOpHash, 'dropped', (r) => {
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
      closed = true
      stopListening?.()
      stopChainEvents()
      if (autoTimer) clearTimeout(autoTimer)
      if (intervalTimer) clearInterval(intervalTimer)
      clearInterval(decayTimer)
      await runner.idle().catch(() => {})
      await userOperations.close()
    },
  }
}

function isAaError(err: unknown, code: string): boolean {
  return err instanceof AppError && readAaCode(err.shortMessage) === code
}
