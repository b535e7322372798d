import {
  type AbiEvent,
  type AbiParameter,
  decodeAbiParameters,
  type Hex,
  type Log,
  toEventSelector,
} from 'viem'

/** A log of the decoder's event with its arguments by name, as viem's parseEventLogs gives it. */
export type DecodedEventLog<L extends Log = Log> = L & { eventName: string; args: Record<string, unknown> }

/**
 * Decodes the logs of one event, its selector hashed once. viem's parseEventLogs and decodeEventLog hash the event's
 * signature again for every call and every log (formatAbiItem and keccak256: most of their cost for a bundle's
 * few logs), and the service reads its events from every bundle it mines. Logs of other events, and logs that do
 * not decode as the event, are left out (as parseEventLogs does in its strict mode). An indexed argument of a
 * dynamic type is given as its topic (the hash), as viem gives it.
 */
export function createEventDecoder(
  event: AbiEvent,
): <L extends Log>(logs: readonly L[]) => DecodedEventLog<L>[] {
  const selector = toEventSelector(event)
  const indexed = event.inputs.filter((input) => input.indexed)
  const unindexed = event.inputs.filter((input) => !input.indexed)
  const decode = (topics: readonly Hex[], data: Hex): Record<string, unknown> | undefined => {
    if (topics.length !== indexed.length + 1) return undefined
    const args: Record<string, unknown> = {}
    indexed.forEach((input, i) => {
      const topic = topics[i + 1] as Hex
      args[input.name ?? String(i)] = isDynamic(input) ? topic : decodeAbiParameters([input], topic)[0]
    })
    if (unindexed.length > 0) {
      const values = decodeAbiParameters(unindexed, data)
      unindexed.forEach((input, i) => {
        args[input.name ?? String(i)] = values[i]
      })
    }
    return args
  }
  return (logs) =>
    logs.flatMap((log) => {
      if (log.topics[0]?.toLowerCase() !== selector) return []
      try {
        const args = decode(log.topics as Hex[], log.data)
        return args ? [{ ...log, eventName: event.name, args }] : []
      } catch {
        return []
      }
    })
}

function isDynamic(input: AbiParameter): boolean {
  return (
    input.type === 'string' || input.type === 'bytes' || input.type === 'tuple' || input.type.endsWith(']')
  )
}
