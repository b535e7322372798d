import { decodeEventLog, type Hex } from 'viem'
import { checksumAddress } from '../chain/checksumAddress'
import type { ContractBook } from './contractBook'
import { formatValue } from './formatValue'
import type { ExplainedEvent, TracedFrame } from './types'

type Log = NonNullable<TracedFrame['logs']>[number]

/** Which of a frame's own logs and calls to walk (all of them below it). */
export type LogFilter = { call: (frame: TracedFrame) => boolean; log: (log: Log) => boolean }

/**
 * The logs of frames that succeeded (a reverted frame's logs are undone with it), in the order they were emitted: a
 * log's `position` is how many calls its frame had made before it (a node that gives none puts the frame's logs last).
 */
export function collectLogs(frame: TracedFrame, filter?: LogFilter): Log[] {
  if (frame.error) return []
  const calls = (frame.calls ?? []).filter((call) => filter?.call(call) ?? true)
  const logs = (frame.logs ?? []).filter((log) => filter?.log(log) ?? true)
  const positionOf = (log: Log) =>
    log.position === undefined ? Number.MAX_SAFE_INTEGER : Number(log.position)
  const all = frame.calls ?? []
  const out: Log[] = []
  let next = 0
  for (let i = 0; i <= all.length; i++) {
    while (next < logs.length && positionOf(logs[next] as Log) <= i) out.push(logs[next++] as Log)
    const call = all[i]
    if (call && calls.includes(call)) out.push(...collectLogs(call))
  }
  return [...out, ...logs.slice(next)]
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
