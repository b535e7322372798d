import type { Hex } from 'viem'
import { checksumAddress } from '../../chain/checksumAddress'
import { getDepositInfo } from '../../chain/entryPoint/getDepositInfo'
import type { Chain } from '../../chain/types'
import { invalidFields, userOperationRejected, validationRulesBroken } from '../../entryPoint/errors'
import type { EntryPointModule, UserOperationBase, ValidationResult } from '../../entryPoint/types'
import { RpcError } from '../../errors'
import { Erc7769Code } from '../../errors/rpcCodes'
import { type BundlerOptions, countsAsStaked } from '../bundlerOptions'
import type { GasPrices } from '../gasPrices'
import { blockRangeError, isValidReplacement, type Mempool, type MempoolEntry } from '../mempool/mempool'
import { checkUserOperationFields } from '../validation/checkUserOperationFields'
import { findSignatureFailure } from './findSignatureFailure'
import type { NonceTracker } from './nonceTracker'
import { simulateNonceAware } from './simulateNonceAware'

export type AdmitUserOperationParameters = {
  chain: Chain
  entryPoint: EntryPointModule
  mempool: Mempool
  nonces: NonceTracker
  gasPrices: GasPrices
  /** Gas limit of the largest bundle. */
  maxBundleGas: () => Promise<bigint>
  userOperation: UserOperationBase
  userOpHash: Hex
  dappId: string | null
  /** Simulates the call phase and rejects a reverting one (-32521): `validation_and_execution` of the Biconomy SDK. */
  simulateExecution?: (op: UserOperationBase, maxSimulationGas: bigint) => Promise<void>
  safeMode: boolean
  /** What counts as staked (ERC-7562 SREP-010): for the rules and the mempool limits. */
  stakeThresholds: Pick<BundlerOptions, 'minStake' | 'minUnstakeDelay'>
  nonceGapWaitMs: number
}

/**
 * Decides whether an operation may be valid in the mempool: field checks and gas floors, duplicates and
 * replacements, the simulated validation (ERC-7562 rules in safe mode, signatures, time range) and the paymaster's
 * deposit against everything it has pending. Returns the mempool entry, with its entities' stakes, for the mempool's
 * own rules (mempool/checkMempoolRules.ts); throws the RpcError a client gets.
 */
export async function admitUserOperation({
  chain,
  entryPoint: entryPointModule,
  mempool,
  nonces,
  gasPrices,
  maxBundleGas,
  userOperation: op,
  userOpHash,
  dappId,
  simulateExecution,
  safeMode,
  stakeThresholds,
  nonceGapWaitMs,
}: AdmitUserOperationParameters): Promise<MempoolEntry> {
  const entryPoint = entryPointModule.address
  const block = await gasPrices.latestBlock()
  checkUserOperationFields({
    entryPoint: entryPointModule,
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
  const { factory: factoryLower, paymaster: paymasterLower } = entryPointModule.readEntities(op)
  const factory = factoryLower && checksumAddress(factoryLower)
  const paymaster = paymasterLower && checksumAddress(paymasterLower)

  // The paymaster's deposit is read while validation simulates (one round trip to the node less to wait for).
  const depositInfo = paymaster ? getDepositInfo(chain, paymaster, entryPoint) : undefined
  depositInfo?.catch(() => {})
  await entryPointModule.checkAccount(chain, op)
  const admission = await simulateNonceAware({
    chain,
    entryPoint: entryPointModule,
    mempool,
    nonces,
    userOperation: op,
    safeMode,
    stakeThresholds,
    nonceGapWaitMs,
  })
  const staked = { sender: false, factory: false, paymaster: false }
  const bundleGas = entryPointModule.bundleGasOf(op)
  let prefund = bundleGas * op.maxFeePerGas
  let blockWindowEnd: MempoolEntry['blockWindowEnd']
  let validUntil: number | undefined
  if (admission.validated) {
    const { result, violations } = admission
    if (violations.length > 0) {
      throw validationRulesBroken(
        violations.map((v) => `${v.message} [${v.rule}]`),
        [...new Set(violations.map((v) => v.rule))],
      )
    }
    if (result.returnInfo.sigFailed) {
      const by = result.returnInfo.sigFailedBy
      throw userOperationRejected(
        by
          ? `${by === 'account' ? 'AA24' : 'AA34'} signature error`
          : paymaster
            ? await findSignatureFailure(chain, entryPointModule, op)
            : 'AA24 signature error',
      )
    }
    // Chain time: what the EntryPoint will compare the windows with (evm_increaseTime moves it).
    const now = BigInt(Math.max(chain.clock.now(), Number(block.timestamp)))
    const { validAfter } = result.returnInfo
    validUntil = result.returnInfo.validUntil || undefined
    if (BigInt(validAfter) > now) {
      throw new RpcError(
        `${paymaster ? 'AA32 paymaster' : 'AA22'} expired or not due: valid only after ${validAfter}`,
        Erc7769Code.expiresShortly,
      )
    }
    if (validUntil !== undefined && BigInt(validUntil) < now + 30n) {
      throw new RpcError(
        `${paymaster ? 'AA32 paymaster' : 'AA22'} expired or not due: validUntil ${validUntil} is less than 30 s away`,
        Erc7769Code.expiresShortly,
      )
    }
    // Block windows against the chain's block number now (the cached block may be a few blocks old).
    if (result.returnInfo.blockRanges)
      checkBlockRanges(
        result.returnInfo.blockRanges,
        await chain.publicClient.getBlockNumber({ cacheTime: 0 }),
      )
    staked.sender = countsAsStaked(result.senderInfo, stakeThresholds)
    staked.factory = factory !== null && countsAsStaked(result.factoryInfo, stakeThresholds)
    staked.paymaster = paymaster !== null && countsAsStaked(result.paymasterInfo, stakeThresholds)
    prefund = result.returnInfo.prefund
    blockWindowEnd = readBlockWindowEnd(result.returnInfo.blockRanges)
    await simulateExecution?.(op, block.gasLimit)
  }
  if (paymaster && depositInfo) {
    const { deposit } = await depositInfo
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
    bundleGas,
    state: 'pending',
    validated: admission.validated,
    rulesCheckedBy: admission.validated ? admission.tracer : 'none',
    prefund,
    factory,
    paymaster,
    staked,
    storageAddresses: admission.validated ? admission.storageAddresses : [],
    dappId,
    addedAt: Date.now(),
    attempts: 0,
    ...(blockWindowEnd ? { blockWindowEnd } : {}),
    ...(validUntil !== undefined ? { validUntil } : {}),
  }
}

/** The earliest end of the block windows (v0.9), with whose it is; none without one. */
function readBlockWindowEnd(
  ranges: ValidationResult['returnInfo']['blockRanges'],
): MempoolEntry['blockWindowEnd'] {
  const ends = (['account', 'paymaster'] as const).flatMap((entity) => {
    const range = ranges?.[entity]
    return range ? [{ block: range.validUntilBlock, entity }] : []
  })
  return ends.sort((a, b) => a.block - b.block)[0]
}

/** Blocks an operation must stay valid for to be admitted (a bundle goes in the next block or the one after). */
const MIN_VALID_BLOCKS = 2n

/**
 * v0.9 windows in block numbers (the EntryPoint's AA27 for the account, AA37 for the paymaster): valid in the blocks
 * after validAfterBlock up to validUntilBlock. Refused when not due by the next block, or ending before
 * MIN_VALID_BLOCKS more blocks.
 */
function checkBlockRanges(ranges: ValidationResult['returnInfo']['blockRanges'], current: bigint): void {
  for (const [entity, range] of Object.entries(ranges ?? {})) {
    if (!range) continue
    const code = blockRangeError(entity as 'account' | 'paymaster')
    if (BigInt(range.validAfterBlock) >= current + 1n)
      throw new RpcError(
        `${code}: valid only after block ${range.validAfterBlock}, the chain is at block ${current}`,
        Erc7769Code.expiresShortly,
      )
    if (BigInt(range.validUntilBlock) < current + MIN_VALID_BLOCKS)
      throw new RpcError(
        `${code}: valid until block ${range.validUntilBlock}, the chain is at block ${current}`,
        Erc7769Code.expiresShortly,
      )
  }
}
