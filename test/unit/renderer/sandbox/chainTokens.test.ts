import { describe, expect, it } from 'vitest'
import { findTokenPaymaster } from '../../../../src/renderer/src/features/sandbox/chainTokens'
import type { OpstationAddresses } from '../../../../src/shared/chainAddresses'
import { ENTRY_POINT_VERSIONS } from '../../../../src/shared/entryPointVersions'

/** Every contract at a distinct address: `0x…<n>` by the field's position. */
const addresses = Object.fromEntries(
  [
    'create2Deployer',
    'entryPoint',
    'simpleAccountFactory',
    'smartAccountFactory',
    'smartAccountImplementation',
    'fallbackHandler',
    'ecdsaModule',
    'verifyingPaymaster',
    'tokenPaymaster',
    'entryPointV07',
    'simpleAccountFactoryV07',
    'entryPointV08',
    'simpleAccountFactoryV08',
    'simple7702AccountV08',
    'verifyingPaymasterV07',
    'tokenPaymasterV07',
    'verifyingPaymasterV08',
    'tokenPaymasterV08',
    'entryPointV09',
    'simple7702AccountV09',
    'verifyingPaymasterV09',
    'tokenPaymasterV09',
  ].map((name, i) => [name, `0x${(i + 1).toString(16).padStart(40, '0')}`]),
) as Omit<OpstationAddresses, 'tokens'>

describe("the chain's token paymasters", () => {
  it("finds each EntryPoint version's own token paymaster", () => {
    const chain: OpstationAddresses = { ...addresses, tokens: [] }
    expect(ENTRY_POINT_VERSIONS.map((v) => findTokenPaymaster(chain, v))).toEqual([
      chain.tokenPaymaster,
      chain.tokenPaymasterV07,
      chain.tokenPaymasterV08,
      chain.tokenPaymasterV09,
    ])
    expect(new Set(ENTRY_POINT_VERSIONS.map((v) => findTokenPaymaster(chain, v))).size).toBe(4)
  })

  it('finds none without a chain', () => {
    expect(findTokenPaymaster(null, '0.7')).toBeNull()
    expect(findTokenPaymaster(undefined, '0.6')).toBeNull()
  })
})
