import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  compactReceipt,
  expandReceipt,
  logsBloom,
  type NodeReceipt,
} from '../../../src/main/service/store/compactReceipt'

/** A bundle's receipt as anvil 1.7.1 answered eth_getTransactionReceipt (two UserOperations). */
const receipt = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../fixtures/anvilBundleReceipt.json'), 'utf8'),
) as NodeReceipt

describe('compactReceipt', () => {
  it('gives back the very receipt anvil answered, key order included, from a form without what it repeats', () => {
    const compact = compactReceipt(receipt)
    expect('raw' in compact).toBe(false)
    expect(JSON.stringify(expandReceipt(compact))).toBe(JSON.stringify(receipt))
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(receipt).length * 0.6)
  })

  it("computes the logs' bloom filter as the node does", () => {
    expect(logsBloom(receipt.logs)).toBe(receipt.logsBloom)
    expect(logsBloom([])).toBe(`0x${'0'.repeat(512)}`)
  })

  it('keeps a receipt whole when its logs do not follow the pattern (log indexes not consecutive)', () => {
    const odd = structuredClone(receipt)
    const last = odd.logs.at(-1) as Record<string, unknown>
    last.logIndex = '0x63'
    const compact = compactReceipt(odd)
    expect(compact).toEqual({ raw: odd })
    expect(expandReceipt(compact)).toEqual(odd)
  })
})
