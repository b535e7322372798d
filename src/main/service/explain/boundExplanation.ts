import type { ExplainedCall, ExplainedEvent } from './types'

/**
 * What an explanation keeps at most: it is stored with its operation's history (about 2.75 KB an operation is the
 * history's budget, store/userOperationHistory.ts), so a bundle of a thousand nested calls or a call with a megabyte
 * of calldata is cut, and the explanation says so in its notes.
 */
export const EXPLANATION_BOUNDS = {
  /** Calls of the tree, counted depth first (handleOps is the first). */
  maxCalls: 200,
  /** Levels below handleOps. */
  maxDepth: 12,
  /** Bytes of one call's raw input (an undecoded call: a contract's creation code too) or of one event's data. */
  maxRawBytes: 1024,
  maxEvents: 100,
}

type Bounded<T> = { value: T; notes: string[] }

const cutHex = (hex: `0x${string}`, maxBytes: number): `0x${string}` =>
  hex.length > 2 + 2 * maxBytes ? (hex.slice(0, 2 + 2 * maxBytes) as `0x${string}`) : hex

/**
 * The call tree within EXPLANATION_BOUNDS: calls past the count or the depth are left out (their caller's gas and
 * outcome stay), raw inputs cut; with a note for each kind of cut.
 */
export function boundCallTree(root: ExplainedCall, bounds = EXPLANATION_BOUNDS): Bounded<ExplainedCall> {
  let kept = 0
  let leftOut = 0
  let deepest = false
  let cutInputs = 0
  const count = (call: ExplainedCall): number => 1 + call.calls.reduce((sum, c) => sum + count(c), 0)
  const walk = (call: ExplainedCall, depth: number): ExplainedCall => {
    kept++
    const calls: ExplainedCall[] = []
    for (const child of call.calls) {
      if (depth >= bounds.maxDepth || kept >= bounds.maxCalls) {
        if (depth >= bounds.maxDepth) deepest = true
        leftOut += count(child)
        continue
      }
      calls.push(walk(child, depth + 1))
    }
    const input = call.input && cutHex(call.input, bounds.maxRawBytes)
    if (input !== call.input) cutInputs++
    return { ...call, ...(input ? { input } : {}), calls }
  }
  const value = walk(root, 0)
  const notes: string[] = []
  if (leftOut > 0)
    notes.push(
      `the call tree is cut: ${leftOut} calls left out (at most ${bounds.maxCalls} calls${deepest ? ` and ${bounds.maxDepth} levels` : ''} are kept)`,
    )
  if (cutInputs > 0)
    notes.push(
      `${cutInputs === 1 ? 'an undecoded call input is' : `${cutInputs} undecoded call inputs are`} cut to its first ${bounds.maxRawBytes} bytes`,
    )
  return { value, notes }
}

/** The events within EXPLANATION_BOUNDS: the first ones, raw data cut; with a note when any is. */
export function boundEvents(
  events: readonly ExplainedEvent[],
  bounds = EXPLANATION_BOUNDS,
): Bounded<ExplainedEvent[]> {
  const kept = events
    .slice(0, bounds.maxEvents)
    .map((event) => (event.data ? { ...event, data: cutHex(event.data, bounds.maxRawBytes) } : event))
  const notes: string[] = []
  if (events.length > kept.length)
    notes.push(`${events.length - kept.length} events left out (the first ${bounds.maxEvents} are kept)`)
  if (kept.some((event, i) => event.data !== events[i]?.data))
    notes.push(`undecoded event data is cut to its first ${bounds.maxRawBytes} bytes`)
  return { value: kept, notes }
}
