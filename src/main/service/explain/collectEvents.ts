import { decodeEventLog, type Hex } from 'viem'
import { checksumAddress } from '../chain/checksumAddress'
import type { ContractBook } from './contractBook'
import { formatValue } from './formatValue'
import type { ExplainedEvent, TracedFrame } from './types'

type Log = NonNullable<TracedFrame['logs']>[number]

/** The logs of frames that succeeded (a reverted frame's logs are undone with it), in order. */
export function collectLogs(frame: TracedFrame): Log[] {
  if (frame.error) return []
  return [...(frame.logs ?? []), ...(frame.calls ?? []).flatMap(collectLogs)]
}

/**
 * A log decoded with its emitter's ABI, or with any known ABI declaring an event of the same signature hash (an ERC-20
 * `Transfer` of any token); shown as topics and data when none does.
 */
export function decodeEvent(log: Log, book: ContractBook): ExplainedEvent {
  const contract = book.lookup(log.address)
  for (const abi of [contract?.abi ?? [], book.events]) {
    try {
      const { eventName, args } = decodeEventLog({
        abi,
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data,
      })
      return {
        address: checksumAddress(log.address),
        contract: contract?.name ?? null,
        name: eventName ?? null,
        args: formatValue(args) as ExplainedEvent['args'],
      }
    } catch {}
  }
  return {
    address: checksumAddress(log.address),
    contract: contract?.name ?? null,
    name: null,
    topics: log.topics,
    data: log.data,
  }
}
