import { describe, expect, it } from 'vitest'
import type { Chain } from '../../../src/main/service/chain'
import type { SponsorableOperation } from '../../../src/main/service/entryPoint'
import { chooseValidity } from '../../../src/main/service/paymaster/chooseValidity'

const chain = {} as Chain
const carrying = (window: { validUntil: number; validAfter: number } | null) =>
  ({ carriedWindow: () => window }) as unknown as SponsorableOperation

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
