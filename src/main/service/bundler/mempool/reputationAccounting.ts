import type { Address } from 'viem'
import { readAaCode } from '../../entryPoint/errors'
import type { MempoolEntry } from './mempool'
import type { Reputation } from './reputation'

/** How an operation failed when a bundle was built. */
export type BundlingFailure =
  /** It fails on its own against the current chain: its second validation failed. */
  | 'validation'
  /** It passes on its own but fails beside the others: it made the bundle fail (GREP-040). */
  | 'bundle'

/** The entities an operation's reputation counts for: its factory and paymaster, and its sender when staked. */
export function listReputationEntities(entry: MempoolEntry): Address[] {
  const entities: Address[] = []
  if (entry.staked.sender) entities.push(entry.userOperation.sender)
  if (entry.factory) entities.push(entry.factory)
  if (entry.paymaster) entities.push(entry.paymaster)
  return entities
}

/**
 * An operation entered the mempool (opsSeen + 1 for each of its entities); the operation it replaced, if any, no
 * longer counts (- 1 for each of its entities: a replaced paymaster's count moves to the new one).
 */
export function recordAccepted(reputation: Reputation, entry: MempoolEntry, replaced?: MempoolEntry): void {
  if (replaced) for (const address of listReputationEntities(replaced)) reputation.recordSeen(address, -1)
  for (const address of listReputationEntities(entry)) reputation.recordSeen(address)
}

/** An operation was mined: opsIncluded + 1 for each entity it was seen for. */
export function recordMined(reputation: Reputation, entry: MempoolEntry): void {
  for (const address of listReputationEntities(entry)) reputation.recordIncluded(address)
}

/**
 * The entity accountable for an operation's failure, from the EntryPoint's reason: a paymaster failure (AA3x) is
 * its staked sender's (EREP-030) or the paymaster's; an account failure (AA2x) its staked factory's (EREP-020) or
 * the sender's, never the paymaster's (EREP-015); a deployment failure (AA1x) the factory's. Null for other reasons.
 */
export function findEntityToBlame(reason: string, entry: MempoolEntry): Address | null {
  const aa = readAaCode(reason) ?? ''
  const sender = entry.userOperation.sender
  if (aa.startsWith('AA3')) return entry.staked.sender ? sender : entry.paymaster
  if (aa.startsWith('AA2')) return entry.staked.factory && entry.factory ? entry.factory : sender
  if (aa.startsWith('AA1')) return entry.factory
  return null
}

/**
 * An operation was rejected while a bundle was built. Its entities' opsSeen are taken back and only the
 * accountable entity is charged: one more opsSeen when its second validation failed; when it made the bundle fail
 * after passing on its own, the BAN_OPS_SEEN_PENALTY (GREP-040). Returns the entity banned that way, whose other
 * pending operations must go too (GREP-010), or null.
 */
export function recordRejectedAtBundling(
  reputation: Reputation,
  entry: MempoolEntry,
  reason: string,
  failure: BundlingFailure,
): Address | null {
  for (const address of listReputationEntities(entry)) reputation.recordSeen(address, -1)
  const blamed = findEntityToBlame(reason, entry)
  if (!blamed) return null
  if (failure === 'validation') {
    reputation.recordSeen(blamed)
    return null
  }
  reputation.recordBundleFailure(blamed)
  return blamed
}
