import { concat, pad } from 'viem'
import { toCoinbaseSmartAccount, toSoladySmartAccount } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { proveClientCell } from './clientMatrix'
import {
  accountTypeOf,
  type CreateAccount,
  expectSelfPaidMint,
  expectSponsoredMint,
  withClientTestService,
} from './clientTestKit'

const setup = withClientTestService()

/**
 * One of viem's own account implementations, as a dApp calls it: deployed by its first operation, which calls a
 * contract, sponsored through ERC-7677 and self-paid.
 */
function describeViemAccount(
  title: string,
  cell: { account: string; entryPoint: '0.6' | '0.7' },
  create: CreateAccount,
) {
  describe(title, () => {
    it('deploys the account and calls a contract, sponsored through ERC-7677, and Activity names it', async (context) => {
      proveClientCell(context, { client: 'viem', ...cell, payment: 'sponsored' })
      const { hash } = await expectSponsoredMint(setup, create)
      expect(await accountTypeOf(setup, hash)).toBe(cell.account)
    })

    it('deploys the account with a batch of two calls, paying for its own gas', async (context) => {
      proveClientCell(context, { client: 'viem', ...cell, payment: 'self-paid' })
      await expectSelfPaidMint(setup, create)
    })
  })
}

for (const [version, account] of [
  ['1', 'Coinbase Smart Wallet v1'],
  ['1.1', 'Coinbase Smart Wallet v1.1'],
] as const) {
  describeViemAccount(
    `viem's toCoinbaseSmartAccount version ${version} (${account}, EntryPoint 0.6)`,
    { account, entryPoint: '0.6' },
    (client, owner) => toCoinbaseSmartAccount({ client, owners: [owner], version }),
  )
}

/**
 * The salt of a Solady account must start with the owner's address: the factory takes no other but zero, and a zero
 * salt gives every owner the same address (the first to deploy it owns it).
 */
describeViemAccount(
  "viem's toSoladySmartAccount (Solady account, EntryPoint 0.7)",
  { account: 'Solady account', entryPoint: '0.7' },
  (client, owner) =>
    toSoladySmartAccount({ client, owner, salt: concat([owner.address, pad('0x00', { size: 12 })]) }),
)
