import { toCoinbaseSmartAccount } from 'viem/account-abstraction'
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

/** viem's own account implementations, as a dApp calls them (client, owner, and the version viem's types require). */
describe.each([
  ['1', 'Coinbase Smart Wallet v1'],
  ['1.1', 'Coinbase Smart Wallet v1.1'],
] as const)("viem's toCoinbaseSmartAccount version %s (%s, EntryPoint 0.6)", (version, account) => {
  const create: CreateAccount = (client, owner) =>
    toCoinbaseSmartAccount({ client, owners: [owner], version })

  it('deploys the wallet and calls a contract, sponsored through ERC-7677, and Activity names it', async (context) => {
    proveClientCell(context, { client: 'viem', account, entryPoint: '0.6', payment: 'sponsored' })
    const { hash } = await expectSponsoredMint(setup, create)
    expect(await accountTypeOf(setup, hash)).toBe(account)
  })

  it('deploys the wallet with a batch of two calls, paying for its own gas', async (context) => {
    proveClientCell(context, { client: 'viem', account, entryPoint: '0.6', payment: 'self-paid' })
    await expectSelfPaidMint(setup, create)
  })
})
