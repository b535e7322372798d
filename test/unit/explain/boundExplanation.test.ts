import { describe, expect, it } from 'vitest'
import {
  boundCallTree,
  boundEvents,
  EXPLANATION_BOUNDS,
} from '../../../src/main/service/explain/boundExplanation'
import type { ExplainedCall, ExplainedEvent } from '../../../src/main/service/explain/types'

const call = (calls: ExplainedCall[] = [], input?: `0x${string}`): ExplainedCall => ({
  type: 'CALL',
  from: '0x0000000000000000000000000000000000000001',
  to: '0x0000000000000000000000000000000000000002',
  contract: null,
  function: null,
  ...(input ? { input } : {}),
  value: '0',
  gas: '100',
  gasUsed: '50',
  error: null,
  calls,
})
/** The default bounds with some changed. */
const bounds = (changed: Partial<typeof EXPLANATION_BOUNDS>) => ({ ...EXPLANATION_BOUNDS, ...changed })
const size = (c: ExplainedCall): number => 1 + c.calls.reduce((sum, child) => sum + size(child), 0)

describe('boundCallTree', () => {
  it('keeps a small tree as it is, with no note', () => {
    const tree = call([call(), call([call()])])
    expect(boundCallTree(tree)).toEqual({ value: tree, notes: [] })
  })

  it('keeps at most maxCalls calls and says how many it left out', () => {
    const tree = call(Array.from({ length: 10 }, () => call([call()])))
    const { value, notes } = boundCallTree(tree, {
      maxCalls: 5,
      maxDepth: 12,
      maxRawBytes: 100,
      maxEvents: 1,
    })
    expect(size(value)).toBe(5)
    expect(notes).toEqual(['the call tree is cut: 16 calls left out (at most 5 calls are kept)'])
  })

  it('cuts below maxDepth and cuts long raw inputs, saying both', () => {
    let deep = call([], `0x${'ab'.repeat(100)}`)
    for (let i = 0; i < 5; i++) deep = call([deep])
    const { value, notes } = boundCallTree(deep, {
      maxCalls: 100,
      maxDepth: 3,
      maxRawBytes: 4,
      maxEvents: 1,
    })
    expect(size(value)).toBe(4)
    expect(notes[0]).toBe('the call tree is cut: 2 calls left out (at most 100 calls and 3 levels are kept)')
    const long = boundCallTree(call([], `0x${'ab'.repeat(100)}`), {
      maxCalls: 100,
      maxDepth: 3,
      maxRawBytes: 4,
      maxEvents: 1,
    })
    expect(long.value.input).toBe('0xabababab')
    expect(long.notes).toEqual(['an undecoded call input is cut to its first 4 bytes'])
  })
})

describe('boundEvents', () => {
  it('keeps the first maxEvents events and says how many it left out', () => {
    const events: ExplainedEvent[] = Array.from({ length: 3 }, () => ({
      address: '0x0000000000000000000000000000000000000002',
      contract: null,
      name: null,
      topics: [],
      data: '0x01',
    }))
    const { value, notes } = boundEvents(events, bounds({ maxRawBytes: 4, maxEvents: 2 }))
    expect(value).toHaveLength(2)
    expect(notes).toEqual(['1 events left out (the first 2 are kept)'])
  })
})
