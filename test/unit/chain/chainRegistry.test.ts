import { describe, expect, it } from 'vitest'
import { createChainRegistry } from '../../../src/main/service/chain/chainRegistry'
import { UnknownChainError } from '../../../src/main/service/errors'

describe('the chain registry', () => {
  const a = { chainId: 31337, name: 'a' }
  const b = { chainId: 31338, name: 'b' }
  const registry = createChainRegistry([a, b])

  it('finds a URL chain id segment, as text or number, and keeps the first chain first', () => {
    expect(registry.resolve('31338')).toBe(b)
    expect(registry.resolve(31337)).toBe(a)
    expect(registry.first).toBe(a)
    expect(registry.chainIds).toEqual([31337, 31338])
    expect(registry.get(1)).toBeUndefined()
  })

  it.each(['1', '0x7a69', '31337abc', `1${'0'.repeat(80)}`, ''])(
    'answers the chain id %j with a 400 / -32003 error naming the chains it runs',
    (segment) => {
      let caught: unknown
      try {
        registry.resolve(segment)
      } catch (err) {
        caught = err
      }
      expect(caught).toBeInstanceOf(UnknownChainError)
      const error = caught as UnknownChainError
      expect(error.shortMessage).toBe(
        `Chain ID ${segment} in the URL is not served here; this service runs chains 31337 and 31338`,
      )
      expect([error.httpStatus, error.rpcHttpStatus, error.rpcCode]).toEqual([400, 400, -32003])
    },
  )

  it('refuses the same chain twice', () => {
    expect(() => createChainRegistry([a, { ...b, chainId: 31337 }])).toThrow(
      'chain 31337 is in the registry twice',
    )
  })
})
