import {
  createBicoBundlerClient,
  createBicoPaymasterClient,
  getMEEVersion,
  MEEVersion,
  toNexusAccount,
} from '@biconomy/abstractjs'
import { defineChain, http, parseEther, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { fundEth } from '../../src/main/service/chain'
import { publicClientOf, randomAddress } from '../integration/bundler/bundlerTestKit'
import { proveClientCell } from '../integration/clients/clientMatrix'
import {
  accountTypeOf,
  expectDelegatedByBundle,
  expectPrefundSettled,
  expectSafeModeRefusal,
  inUnsafeMode,
  NEXUS_SAFE_MODE_REFUSAL,
  withClientTestService,
} from '../integration/clients/clientTestKit'
import { tokenBalance } from '../integration/paymaster/paymasterTestKit'

const setup = withClientTestService()

/**
 * The MEE suites whose contracts the account zoo deploys: 2.0.0 (abstractjs's default: Nexus 1.2.0) and 1.0.0 (Nexus
 * 1.0.2, the K1MeeValidator as default validator, a composable module). `type` is how Activity names the account.
 */
const suites = [
  { mee: MEEVersion.V2_0_0, nexus: '1.2.0', type: 'Nexus 1.2' },
  { mee: MEEVersion.V1_0_0, nexus: '1.0.2', type: 'Nexus 1.0' },
] as const

/**
 * A Nexus account as Biconomy's docs build it: toNexusAccount with an MEE version (`getMEEVersion`).
 * Its chain check passes on the local chain: 31337 is not in abstractjs's table of Cancun chains, so it reads the
 * latest block, whose blobGasUsed / excessBlobGas anvil fills (Cancun); its versionCheck (on by default) then finds
 * code at the suite's factory, implementation, bootstrap and K1MeeValidator (and 1.0.0's composable module), which
 * the account zoo deploys; without it toNexusAccount answers "MEE version … is not supported for the … chain".
 */
async function createNexusAccount(mee: MEEVersion) {
  const { rpcUrl, chainId } = setup.service.info()
  const chain = defineChain({
    id: chainId,
    name: 'Opstation local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl!] } },
  })
  return toNexusAccount({
    signer: privateKeyToAccount(generatePrivateKey()),
    chainConfiguration: { chain, transport: http(rpcUrl!), version: getMEEVersion(mee) },
  })
}

/** Biconomy's own clients throughout (the kit's expectSelfPaidMint / expectSponsoredMint drive viem's bundler client). */
for (const { mee, nexus, type } of suites)
  describe(`@biconomy/abstractjs 1.2 (Nexus ${nexus} with MEE ${mee}, EntryPoint 0.7)`, () => {
    // ERC-7562 forbids Nexus's deployment (NEXUS_SAFE_MODE_REFUSAL): proven in unsafe mode, and its cells say so.
    const cell = {
      client: '@biconomy/abstractjs 1.2',
      account: `Nexus ${nexus} (MEE ${mee}, unsafe mode)`,
      entryPoint: '0.7',
    } as const

    it(`is refused in safe mode: ${NEXUS_SAFE_MODE_REFUSAL.why} [${NEXUS_SAFE_MODE_REFUSAL.rule}]`, async () => {
      const account = await createNexusAccount(mee)
      await fundEth(setup.service.chain!, account.address, parseEther('1'))
      const bundlerClient = createBicoBundlerClient({
        account,
        transport: http(setup.service.info().bundlerUrl),
        pollingInterval: 50,
      })
      await expectSafeModeRefusal(
        () => bundlerClient.sendUserOperation({ calls: [setup.mint(randomAddress(), 1n)] }),
        NEXUS_SAFE_MODE_REFUSAL,
      )
    })

    it('deploys the account with a batch of two calls through the Biconomy bundler client, paying for its own gas, and Activity names it', (context) =>
      inUnsafeMode(setup, async () => {
        proveClientCell(context, { ...cell, payment: 'self-paid' })
        const account = await createNexusAccount(mee)
        await fundEth(setup.service.chain!, account.address, parseEther('1'))
        const bundlerClient = createBicoBundlerClient({
          account,
          transport: http(setup.service.info().bundlerUrl),
          pollingInterval: 50,
        })
        const alice = randomAddress()
        const hash = await bundlerClient.sendUserOperation({
          calls: [setup.mint(alice, 3n), setup.mint(alice, 4n)],
        })
        const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
        expect(receipt.success).toBe(true)
        expect(receipt.sender).toBe(account.address)
        expect(receipt.paymaster).toBe(zeroAddress)
        expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
        // The EntryPoint took the prefund from the account and keeps what the operation did not use as its deposit.
        await expectPrefundSettled(setup.service, receipt)
        expect(await accountTypeOf(setup, hash)).toBe(type)
      }))

    it("deploys the account and calls a contract, sponsored through Biconomy's paymaster client", (context) =>
      inUnsafeMode(setup, async () => {
        proveClientCell(context, { ...cell, payment: 'sponsored' })
        // Biconomy's paymaster client has no stub data: viem calls pm_getPaymasterData once, before estimating, with the
        // limits 0x0 and biconomySponsoredPaymasterContext (calculateGasLimits: true); the paymaster calculates and signs
        // every limit. viem keeps the paymaster fields of the answer and takes the other three limits from the bundler's
        // eth_estimateUserOperationGas, which gives the values the paymaster signed (the same estimator, and
        // preVerificationGas does not depend on the bytes of the paymaster's signature).
        const account = await createNexusAccount(mee)
        const bundlerClient = createBicoBundlerClient({
          account,
          transport: http(setup.service.info().bundlerUrl),
          paymaster: createBicoPaymasterClient({ paymasterUrl: setup.dapp.paymasterUrl }),
          pollingInterval: 50,
        })
        const alice = randomAddress()
        const hash = await bundlerClient.sendUserOperation({ calls: [setup.mint(alice, 7n)] })
        const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
        expect(receipt.success).toBe(true)
        expect(receipt.sender).toBe(account.address)
        expect(receipt.paymaster).not.toBe(zeroAddress)
        expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
        const client = publicClientOf(setup.service)
        expect(await client.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
        expect(await client.getBalance({ address: account.address })).toBe(0n)
      }))
  })

/**
 * An EOA made a Nexus 1.2.0 account by EIP-7702 (MEE 2.0.0) on EntryPoint v0.7, as Biconomy's docs build it:
 * toNexusAccount with the EOA's own address as the account's, and the EOA's authorization to the suite's Nexus
 * implementation passed to sendUserOperation. toNexusAccount offers its factory whatever the account's address (its
 * getFactoryArgs ignores `accountAddress`), and viem asks for it while the EOA has no code: `withoutFactory` leaves it
 * out, as the operation of an account that the authorization makes must.
 */
async function createNexus7702Client(options: { sponsored: boolean; withoutFactory: boolean }) {
  const { rpcUrl, chainId, bundlerUrl } = setup.service.info()
  const chain = defineChain({
    id: chainId,
    name: 'Opstation local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl!] } },
  })
  const signer = privateKeyToAccount(generatePrivateKey())
  const version = getMEEVersion(MEEVersion.V2_0_0)
  const nexus = await toNexusAccount({
    signer,
    chainConfiguration: { chain, transport: http(rpcUrl!), version, accountAddress: signer.address },
  })
  const account = options.withoutFactory
    ? { ...nexus, getFactoryArgs: async () => ({ factory: undefined, factoryData: undefined }) }
    : nexus
  if (!options.sponsored) await fundEth(setup.service.chain!, signer.address, parseEther('1'))
  const bundlerClient = createBicoBundlerClient({
    account,
    transport: http(bundlerUrl),
    paymaster: options.sponsored
      ? createBicoPaymasterClient({ paymasterUrl: setup.dapp.paymasterUrl })
      : undefined,
    pollingInterval: 50,
  })
  const client = publicClientOf(setup.service)
  const authorization = await signer.signAuthorization({
    address: version.implementationAddress,
    chainId,
    nonce: await client.getTransactionCount({ address: signer.address }),
  })
  return { signer, bundlerClient, authorization, implementation: version.implementationAddress, client }
}

describe('@biconomy/abstractjs 1.2 Nexus 1.2.0 as an EIP-7702 account (MEE 2.0.0, EntryPoint 0.7)', () => {
  const cell7702 = {
    client: '@biconomy/abstractjs 1.2',
    account: 'Nexus 1.2.0 (EIP-7702 without its factory, MEE 2.0.0)',
    entryPoint: '0.7',
  } as const

  it('is refused with -32602 as sent by default: its first operation names the Nexus factory beside the authorization, which the EntryPoint would answer with AA10 (the delegated EOA has code)', async () => {
    const { bundlerClient, authorization } = await createNexus7702Client({
      sponsored: false,
      withoutFactory: false,
    })
    const error = await bundlerClient
      .sendUserOperation({ calls: [setup.mint(randomAddress(), 1n)], authorization })
      .then(
        () => null,
        (err: Error) => err,
      )
    expect(error?.message).toMatch(
      /factory: an operation with an eip7702Auth names no factory: the authorization gives the account its code before the EntryPoint runs, which then refuses a factory \(AA10 sender already constructed\)/,
    )
  })

  it("delegates the EOA in a type-4 bundle and calls a contract, sponsored through Biconomy's paymaster client, in safe mode (no factory deploys, so OP-041 does not apply); the next operation goes without an authorization", async (context) => {
    proveClientCell(context, { ...cell7702, payment: 'sponsored' })
    const { signer, bundlerClient, authorization, implementation, client } = await createNexus7702Client({
      sponsored: true,
      withoutFactory: true,
    })
    const alice = randomAddress()
    const hash = await bundlerClient.sendUserOperation({ calls: [setup.mint(alice, 7n)], authorization })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).not.toBe(zeroAddress)
    await expectDelegatedByBundle(setup.service, receipt, signer.address, implementation)
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
    expect(await client.getBalance({ address: signer.address })).toBe(0n)
    expect(await accountTypeOf(setup, hash)).toBe('Nexus 1.2 (EIP-7702)')

    // Delegated already: viem signs no authorization (the EOA has code), and the bundle is a plain transaction.
    const second = await bundlerClient.sendUserOperation({ calls: [setup.mint(alice, 1n)] })
    const secondReceipt = await bundlerClient.waitForUserOperationReceipt({ hash: second, timeout: 30_000 })
    expect(secondReceipt.success).toBe(true)
    expect((await client.getTransaction({ hash: secondReceipt.receipt.transactionHash })).type).toBe(
      'eip1559',
    )
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(8n)
  })

  it('delegates the EOA in a type-4 bundle with a batch of two calls, paying for its own gas, in safe mode', async (context) => {
    proveClientCell(context, { ...cell7702, payment: 'self-paid' })
    const { signer, bundlerClient, authorization, implementation } = await createNexus7702Client({
      sponsored: false,
      withoutFactory: true,
    })
    const alice = randomAddress()
    const hash = await bundlerClient.sendUserOperation({
      calls: [setup.mint(alice, 3n), setup.mint(alice, 4n)],
      authorization,
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(zeroAddress)
    await expectDelegatedByBundle(setup.service, receipt, signer.address, implementation)
    expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
    await expectPrefundSettled(setup.service, receipt)
  })
})
