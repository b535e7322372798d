import { describe, expect, it } from 'vitest'
import type { Chain } from '../../../src/main/service/chain'
import type { SponsorableOperation } from '../../../src/main/service/entryPoint'
import {
  chooseBlockValidity,
  chooseSponsorshipWindow,
  chooseValidity,
} from '../../../src/main/service/paymaster/chooseValidity'

const chain = {} as Chain
const carrying = (window: { validUntil: number; validAfter: number } | null, blockWindows = false) =>
  ({ carriedWindow: () => window, blockWindows }) as unknown as SponsorableOperation
const FLAG = 2 ** 47
/** validAfter/validUntil naming blocks after..until (v0.9's top bit). */
const blocks = (after: number, until: number) => ({ validAfter: FLAG + after, validUntil: FLAG + until })

describe('chooseValidity', () => {
  it('keeps the window the operation carries (v0.9 stub data the account signed) while it is open and allowed', () => {
    expect(
      chooseValidity(chain, carrying({ validUntil: 1_500, validAfter: 0 }), 'verifying', 1_000, 1_600),
    ).toEqual({ validUntil: 1_500, validAfter: 0 })
  })

  it('signs a new window from now when there is none, it has ended, it ends later than allowed or is not due', () => {
    const fresh = { validUntil: 1_600, validAfter: 0 }
    expect(chooseValidity(chain, carrying(null), 'verifying', 1_000, 1_600)).toEqual(fresh)
    expect(
      chooseValidity(chain, carrying({ validUntil: 1_000, validAfter: 0 }), 'token', 1_000, 1_600),
    ).toEqual(fresh)
    expect(
      chooseValidity(chain, carrying({ validUntil: 9_999, validAfter: 0 }), 'token', 1_000, 1_600),
    ).toEqual(fresh)
    expect(
      chooseValidity(chain, carrying({ validUntil: 1_500, validAfter: 1_200 }), 'verifying', 1_000, 1_600),
    ).toEqual(fresh)
  })
})

describe('chooseBlockValidity (v0.9 block windows)', () => {
  const latest = { validAfterBlock: 99, validUntilBlock: 120 }

  it('signs the latest block range with the top bit set when the operation carries none', () => {
    expect(chooseBlockValidity(chain, carrying(null, true), 'verifying', 100, latest)).toEqual({
      ...blocks(99, 120),
      blockRange: latest,
    })
  })

  it('keeps the block range the operation carries (stub data the account signed) while the head is inside it and it ends no later', () => {
    expect(chooseBlockValidity(chain, carrying(blocks(97, 118), true), 'verifying', 100, latest)).toEqual({
      ...blocks(97, 118),
      blockRange: { validAfterBlock: 97, validUntilBlock: 118 },
    })
  })

  it('signs anew when the carried range has ended, is not due at the head, ends later than allowed, or is a time window', () => {
    const fresh = { ...blocks(99, 120), blockRange: latest }
    for (const carried of [
      blocks(90, 100),
      blocks(100, 118),
      blocks(97, 130),
      { validAfter: 0, validUntil: 2_000 },
    ])
      expect(chooseBlockValidity(chain, carrying(carried, true), 'verifying', 100, latest)).toEqual(fresh)
  })
})

describe('chooseSponsorshipWindow', () => {
  const blockChain = { publicClient: { getBlockNumber: async () => 100n } } as unknown as Chain
  const blockWindow = { validForBlocks: 20, validAfterBlock: null, validUntilBlock: null }

  it('signs in block numbers, from the chain head, for a v0.9 operation of a dApp asking a block window', async () => {
    const window = await chooseSponsorshipWindow({
      chain: blockChain,
      policies: { blockWindow, validUntil: null },
      op: carrying(null, true),
      now: 1_000,
      expiryDuration: 600,
    })
    expect(window).toEqual({ ...blocks(99, 120), blockRange: { validAfterBlock: 99, validUntilBlock: 120 } })
  })

  it("keeps a time window, ending by now + expiryDuration and the dApp's validUntil, for an operation whose EntryPoint reads only times (v0.6-v0.8) and for a dApp asking no block window", async () => {
    const time = { validUntil: 1_600, validAfter: 0, blockRange: null }
    expect(
      await chooseSponsorshipWindow({
        chain: blockChain,
        policies: { blockWindow, validUntil: null },
        op: carrying(null, false),
        now: 1_000,
        expiryDuration: 600,
      }),
    ).toEqual(time)
    expect(
      await chooseSponsorshipWindow({
        chain: blockChain,
        policies: { blockWindow: null, validUntil: 1_600 },
        op: carrying(null, true),
        now: 1_000,
        expiryDuration: 3_600,
      }),
    ).toEqual(time)
  })
})
