import { describe, expect, it } from 'vitest'
import { isOfChain, listChainClocks } from '../../../../src/renderer/src/features/time/chainClocks'

const DAY = 86_400

describe('listChainClocks', () => {
  it('with one chain, shows its clock (no chain id) only when its time is away from wall time', () => {
    expect(listChainClocks([{ chainId: 31337, chainTimeOffsetSeconds: 0 }], 5)).toEqual([])
    expect(listChainClocks([{ chainId: 31337, chainTimeOffsetSeconds: 0 }], DAY)).toEqual([
      { chainId: null, offsetSeconds: DAY },
    ])
    expect(listChainClocks([], -DAY)).toEqual([{ chainId: null, offsetSeconds: -DAY }])
  })

  it("with several chains, a line per chain away from wall time: the first's from the console's offset, the others' from the status", () => {
    const chains = [
      { chainId: 31337, chainTimeOffsetSeconds: DAY },
      { chainId: 31338, chainTimeOffsetSeconds: 3 * DAY },
      { chainId: 31339, chainTimeOffsetSeconds: 10 },
    ]
    expect(listChainClocks(chains, 0)).toEqual([{ chainId: 31338, offsetSeconds: 3 * DAY }])
    expect(listChainClocks(chains, 2 * DAY)).toEqual([
      { chainId: 31337, offsetSeconds: 2 * DAY },
      { chainId: 31338, offsetSeconds: 3 * DAY },
    ])
  })
})

describe('isOfChain', () => {
  it("takes an event that names no chain, or the chain wanted, and leaves another chain's", () => {
    expect(isOfChain(undefined, 31337)).toBe(true)
    expect(isOfChain(31337, 31337)).toBe(true)
    expect(isOfChain(31338, 31337)).toBe(false)
    expect(isOfChain(31338, undefined)).toBe(true)
  })
})
