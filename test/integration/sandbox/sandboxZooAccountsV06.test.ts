import {
  toKernelSmartAccount,
  toLightSmartAccount,
  toSafeSmartAccount,
  toThirdwebSmartAccount,
  toTrustSmartAccount,
} from 'permissionless/accounts'
import { type Address, parseAbi } from 'viem'
import { toCoinbaseSmartAccount } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { getZooAddress } from '../../../src/main/service/chain/accountZoo/zooContracts'
import { SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS, type SandboxAccount } from '../../../src/shared/sandbox'
import { callBundler, publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { inUnsafeMode } from '../clients/clientTestKit'
import { tokenBalance } from '../paymaster/paymasterTestKit'
import {
  activityAccountType,
  buildSponsoredAndSigned,
  describeZooKinds,
  mintCall,
  ownerOnly,
  postConsole,
  runSponsored,
  v06,
  withSandboxService,
  type ZooKind,
} from './sandboxZooKit'

const setup = withSandboxService()

const kinds: ZooKind[] = [
  {
    type: 'SAFE_V06',
    entryPoint: '0.6',
    factory: 'safeProxyFactory',
    activityName: 'Safe 1.4.1',
    sdk: (client, owner) =>
      toSafeSmartAccount({ client, owners: [owner], version: '1.4.1', entryPoint: v06 }),
  },
  {
    type: 'KERNEL_V2_4',
    entryPoint: '0.6',
    factory: 'kernelFactoryV2',
    activityName: 'Kernel v2.4',
    sdk: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.2.4', entryPoint: v06 }),
  },
  {
    type: 'LIGHT_ACCOUNT_V1_1',
    entryPoint: '0.6',
    factory: 'lightAccountFactoryV1_1',
    activityName: 'LightAccount v1.1.0',
    sdk: (client, owner) => toLightSmartAccount({ client, owner, version: '1.1.0', entryPoint: v06 }),
  },
  {
    type: 'THIRDWEB_V06',
    entryPoint: '0.6',
    factory: 'thirdwebFactoryV06',
    activityName: 'thirdweb',
    sdk: (client, owner) => toThirdwebSmartAccount({ client, owner, entryPoint: v06 }),
  },
  {
    type: 'COINBASE_V1',
    entryPoint: '0.6',
    factory: 'coinbaseSmartWalletFactoryV1',
    activityName: 'Coinbase Smart Wallet v1',
    sdk: (client, owner) => toCoinbaseSmartAccount({ client, owners: [owner], version: '1' }),
  },
  {
    type: 'COINBASE_V1_1',
    entryPoint: '0.6',
    factory: 'coinbaseSmartWalletFactoryV1_1',
    activityName: 'Coinbase Smart Wallet v1.1',
    sdk: (client, owner) => toCoinbaseSmartAccount({ client, owners: [owner], version: '1.1' }),
  },
  {
    // account-kit's createMultiOwnerModularAccount (salt 0, the owner alone); its own tests are in test/sdk-clients.
    type: 'MODULAR_ACCOUNT_V1',
    entryPoint: '0.6',
    factory: 'multiOwnerModularAccountFactoryV1',
    activityName: 'Modular Account v1',
    address: (client, owner) =>
      client.readContract({
        address: getZooAddress('multiOwnerModularAccountFactoryV1'),
        abi: parseAbi(['function getAddress(uint256 salt, address[] owners) view returns (address)']),
        functionName: 'getAddress',
        args: [0n, [owner]],
      }),
  },
  {
    // account-kit's createMultisigModularAccount (salt 0, the owner alone, threshold 1); its own tests are in
    // test/sdk-clients.
    type: 'MODULAR_ACCOUNT_V1_MULTISIG',
    entryPoint: '0.6',
    factory: 'multisigModularAccountFactoryV1',
    activityName: 'Modular Account v1',
    address: (client, owner) =>
      client.readContract({
        address: getZooAddress('multisigModularAccountFactoryV1'),
        abi: parseAbi([
          'function getAddress(uint256 salt, address[] owners, uint128 threshold) view returns (address)',
        ]),
        functionName: 'getAddress',
        args: [0n, [owner], 1n],
      }),
  },
]

/**
 * The sandbox's account-zoo accounts on EntryPoint v0.6, driven as the console drives them. Each must be the
 * account its SDK (permissionless, or viem's own for the Coinbase Smart Wallet) builds for the same owner; Modular
 * Account v1 the one its factory computes (account-kit is not a dependency of this package).
 */
describe('sandbox account-zoo accounts on EntryPoint v0.6', () => {
  describeZooKinds(setup, kinds)
})

/**
 * Trust's Barz: its validation reads its DefaultFallbackHandler's facet table, storage of an unstaked contract
 * that is not an entity of the operation. A bundler in safe mode refuses it (as public bundlers do); the console
 * says so (SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS), and it runs with the safety rules off.
 */
describe('sandbox Trust (Barz) on EntryPoint v0.6', () => {
  let account: SandboxAccount
  it('is created at the address permissionless computes, and a bundler in safe mode refuses it for the rule the console names', async () => {
    account = await postConsole(setup, '/console/api/sandbox/accounts', { type: 'TRUST' })
    expect(account).toMatchObject({ type: 'TRUST', entryPointVersion: '0.6', deployed: false })
    const sdkAccount = await toTrustSmartAccount({
      client: publicClientOf(setup.service),
      owner: ownerOnly(account.owner as Address),
      entryPoint: v06,
    })
    expect(account.address).toBe(await sdkAccount.getAddress())

    const { built, signed } = await buildSponsoredAndSigned(setup, account, [
      mintCall(setup, randomAddress(), 1n),
    ])
    expect(built.userOperation.initCode.slice(0, 42).toLowerCase()).toBe(
      getZooAddress('trustFactory').toLowerCase(),
    )
    const sent = (
      await callBundler(setup.service, 'eth_sendUserOperation', [signed.userOperation, built.entryPoint])
    ).body
    const refusal = JSON.stringify(sent.error)
    expect(refusal).toContain(`[${SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS.TRUST?.rule}]`)
    expect(refusal).toContain(`of ${getZooAddress('trustDefaultFallbackHandler')}`)
  })

  it('deploys with a sponsored operation that calls a contract once the safety rules are off, and Activity names it Trust (Barz)', async () => {
    await inUnsafeMode(setup, async () => {
      const alice = randomAddress()
      const { signed, receipt } = await runSponsored(setup, account, [mintCall(setup, alice, 7n)])
      expect(receipt).toMatchObject({
        success: true,
        sender: account.address,
        paymaster: setup.service.chain!.addresses.verifyingPaymaster,
      })
      expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
      expect(await activityAccountType(setup, signed.userOpHash)).toBe('Trust (Barz)')
    })
  })
})
