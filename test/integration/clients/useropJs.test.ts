import { ethers } from 'ethers'
import { Client, Presets } from 'userop'
import { type Address, parseEther } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { fundEth } from '../../../src/main/service/chain'
import { randomAddress } from '../bundler/bundlerTestKit'
import { tokenBalance } from '../paymaster/paymasterTestKit'
import { proveClientCell } from './clientMatrix'
import { withClientTestService } from './clientTestKit'

const setup = withClientTestService()

/**
 * userop.js 0.3 (ethers v5): one URL for the chain and the bundler (the bundler URL passes chain methods through to
 * the node), Stackup's `pm_sponsorUserOperation(op, entryPoint, context)` for the paymaster.
 */
describe('userop.js (ethers v5) SimpleAccount on EntryPoint 0.6, everything at the bundler URL', () => {
  const bundlerUrl = () => setup.service.info().bundlerUrl
  /** userop.js's client, looking for the operation's event every 50 ms (its default is every 5 s, for 30 s). */
  const initClient = async () => {
    const client = await Client.init(bundlerUrl())
    client.waitIntervalMs = 50
    return client
  }
  const createAccount = (paymasterMiddleware?: Parameters<typeof Presets.Builder.SimpleAccount.init>[2]) =>
    Presets.Builder.SimpleAccount.init(
      new ethers.Wallet(generatePrivateKey()),
      bundlerUrl(),
      paymasterMiddleware,
    )

  it('deploys the account and calls a contract, paying for its own gas', async (context) => {
    proveClientCell(context, {
      client: 'userop.js 0.3',
      account: 'Simple',
      entryPoint: '0.6',
      payment: 'self-paid',
    })
    const account = await createAccount()
    await fundEth(setup.service.chain!, account.getSender() as Address, parseEther('1'))
    const client = await initClient()
    const alice = randomAddress()
    const sent = await client.sendUserOperation(account.execute(setup.token, 0, setup.mint(alice, 5n).data))
    const event = await sent.wait()
    expect(event?.args.success).toBe(true)
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(5n)
  })

  it("deploys the account and calls a contract, sponsored through Stackup's pm_sponsorUserOperation", async (context) => {
    proveClientCell(context, {
      client: 'userop.js 0.3',
      account: 'Simple',
      entryPoint: '0.6',
      payment: 'sponsored',
    })
    const account = await createAccount({
      paymasterMiddleware: Presets.Middleware.verifyingPaymaster(setup.dapp.paymasterUrl, {}),
    })
    const client = await initClient()
    const alice = randomAddress()
    const sent = await client.sendUserOperation(account.execute(setup.token, 0, setup.mint(alice, 6n).data))
    const event = await sent.wait()
    expect(event?.args.success).toBe(true)
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(6n)
    expect(
      await setup.service.chain!.publicClient.getBalance({ address: account.getSender() as Address }),
    ).toBe(0n)
  })

  it("shows the service's own message when the bundler refuses an operation (an unfunded account: AA21)", async () => {
    const account = await createAccount()
    const client = await initClient()
    const error = await client
      .sendUserOperation(account.execute(randomAddress(), 0, '0x'))
      .then(() => null)
      .catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error!.message).toContain("AA21 didn't pay prefund")
    expect(error!.message).not.toContain('bad response')
  })

  it("shows the paymaster's refusal reason when a call is outside the dApp's whitelist", async () => {
    const account = await createAccount({
      paymasterMiddleware: Presets.Middleware.verifyingPaymaster(setup.dapp.paymasterUrl, {}),
    })
    const client = await initClient()
    const error = await client
      .sendUserOperation(account.execute(randomAddress(), 0, '0x'))
      .then(() => null)
      .catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error!.message).not.toContain('bad response')
    expect(error!.message.toLowerCase()).toContain('whitelist')
  })
})
