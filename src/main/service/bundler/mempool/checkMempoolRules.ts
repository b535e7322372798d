import type { Address } from 'viem'
import { RpcError } from '../../errors'
import { Erc7769Code } from '../../errors/rpcCodes'
import type { Mempool, MempoolEntry } from './mempool'
import { type Reputation, reputationParameters } from './reputation'

export type CheckMempoolRulesParameters = {
  mempool: Mempool
  reputation: Reputation
  /** The operation about to enter the mempool. */
  entry: MempoolEntry
  /** The pending operation it replaces (same sender and nonce), if any: not counted against the limits. */
  replacing?: MempoolEntry
  /** UREP-010's SAME_SENDER_MEMPOOL_COUNT (4 in ERC-7562; a setting). */
  maxPendingPerUnstakedSender: number
}

type Role = 'account' | 'factory' | 'paymaster'

/**
 * The ERC-7562 mempool rules an operation must pass to enter the mempool, checked against what is pending now:
 * no entity banned (GREP-010); a throttled entity only while it has fewer than THROTTLED_ENTITY_MEMPOOL_COUNT
 * operations pending (GREP-020); an unstaked sender at most `maxPendingPerUnstakedSender` operations (UREP-010), an
 * unstaked factory or paymaster as many as its inclusion record allows (UREP-020); and no address both a sender and
 * a factory or paymaster among the pending operations (STO-040). Throws the RpcError the client gets.
 */
export function checkMempoolRules({
  mempool,
  reputation,
  entry,
  replacing,
  maxPendingPerUnstakedSender,
}: CheckMempoolRulesParameters): void {
  const sender = entry.userOperation.sender
  const entities: [Role, Address | null, boolean][] = [
    ['account', sender, entry.staked.sender],
    ['factory', entry.factory, entry.staked.factory],
    ['paymaster', entry.paymaster, entry.staked.paymaster],
  ]
  for (const [role, address, staked] of entities) {
    if (!address) continue
    const status = reputation.status(address)
    if (status === 'banned')
      throw new RpcError(`${role} ${address} is banned [GREP-010]`, Erc7769Code.reputation, {
        data: { [role]: address },
      })
    const pending = mempool.entriesUsing(address).filter((e) => e !== replacing).length
    if (status === 'throttled' && pending >= reputationParameters.throttledEntityMempoolCount) {
      throw new RpcError(
        `${role} ${address} is throttled: ${pending} of its UserOperations are pending already [GREP-020]`,
        Erc7769Code.reputation,
        { data: { [role]: address } },
      )
    }
    if (staked) continue
    const [allowed, rule] =
      role === 'account'
        ? [maxPendingPerUnstakedSender, 'the limit for an unstaked sender [UREP-010]']
        : [reputation.unstakedEntityAllowance(address), 'the limit its reputation allows [UREP-020]']
    if (pending >= allowed) {
      throw new RpcError(
        `${role} ${address} is unstaked and already has ${pending} pending UserOperations, ${rule}`,
        Erc7769Code.insufficientStake,
        { data: { [role]: address } },
      )
    }
  }
  checkSingleRole(mempool, entry, replacing)
}

/** STO-040: an address is either a sender or a factory/paymaster among the pending operations, never both. */
function checkSingleRole(mempool: Mempool, entry: MempoolEntry, replacing: MempoolEntry | undefined): void {
  const sender = entry.userOperation.sender
  const key = sender.toLowerCase()
  const asEntity = mempool
    .entriesUsing(sender)
    .some((e) => e !== replacing && (e.factory?.toLowerCase() === key || e.paymaster?.toLowerCase() === key))
  if (asEntity) {
    throw new RpcError(
      `The sender address "${sender}" is used as a different entity in another UserOperation currently in mempool [STO-040]`,
      Erc7769Code.opcodeValidation,
      { data: { rules: ['STO-040'] } },
    )
  }
  for (const [title, address] of [
    ['A Paymaster', entry.paymaster],
    ['A Factory', entry.factory],
  ] as const) {
    if (!address) continue
    const asSender = mempool.entriesOfSender(address).some((e) => e !== replacing)
    if (asSender) {
      throw new RpcError(
        `${title} at ${address} in this UserOperation is used as a sender entity in another UserOperation currently in mempool [STO-040]`,
        Erc7769Code.opcodeValidation,
        { data: { rules: ['STO-040'] } },
      )
    }
  }
}
