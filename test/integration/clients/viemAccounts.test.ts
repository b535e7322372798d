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
describe("viem's toCoinbaseSmartAccount (Coinbase Smart Wallet v1, EntryPoint 0.6)", () => {
  const create: CreateAccount = (client, owner) =>
    toCoinbaseSmartAccount({ client, owners: [owner], version: '1' })

  it('deploys the wallet and calls a contract, sponsored through ERC-7677, and Activity names it', async (context) => {
    proveClientCell(context, {
      client: 'viem',
      account: 'Coinbase Smart Wallet v1',
      entryPoint: '0.6',
      payment: 'sponsored',
    })
    const { hash } = await expectSponsoredMint(setup, create)
    expect(await accountTypeOf(setup, hash)).toBe('Coinbase Smart Wallet v1')
  })

  it('deploys the wallet with a batch of two calls, paying for its own gas', async (context) => {
    proveClientCell(context, {
      client: 'viem',
      account: 'Coinbase Smart Wallet v1',
      entryPoint: '0.6',
      payment: 'self-paid',
    })
    await expectSelfPaidMint(setup, create)
  })
})
