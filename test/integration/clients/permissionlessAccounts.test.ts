import {
  toBiconomySmartAccount,
  toEtherspotSmartAccount,
  toKernelSmartAccount,
  toLightSmartAccount,
  toNexusSmartAccount,
  toSafeSmartAccount,
  toSimpleSmartAccount,
  toThirdwebSmartAccount,
  toTrustSmartAccount,
} from 'permissionless/accounts'
import { entryPoint06Address, entryPoint07Address, entryPoint08Address } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { getZooAddress } from '../../../src/main/service/chain/accountZoo/zooContracts'
import { randomAddress } from '../bundler/bundlerTestKit'
import { proveClientCell } from './clientMatrix'
import {
  accountTypeOf,
  type CreateAccount,
  createAccountClient,
  expectRefusedInSafeMode,
  expectSelfPaidMint,
  expectSponsoredMint,
  inUnsafeMode,
  NEXUS_SAFE_MODE_REFUSAL,
  type SafeModeRefusal,
  withClientTestService,
} from './clientTestKit'

const setup = withClientTestService()

const v06 = { address: entryPoint06Address, version: '0.6' } as const
const v07 = { address: entryPoint07Address, version: '0.7' } as const
const v08 = { address: entryPoint08Address, version: '0.8' } as const

type AccountCase = {
  account: string
  entryPoint: '0.6' | '0.7' | '0.8'
  /** How Activity names the account's type. */
  type: string
  create: CreateAccount
  /** ERC-7562 forbids its first operation: safe mode refuses it, and its cells are proven in unsafe mode. */
  refusedInSafeMode?: SafeModeRefusal
}

/** Every account permissionless builds, as a dApp would call it (only the client and owner are given). */
const accounts: AccountCase[] = [
  {
    account: 'Simple',
    entryPoint: '0.6',
    type: 'SimpleAccount v0.6',
    create: (client, owner) => toSimpleSmartAccount({ client, owner, entryPoint: v06 }),
  },
  {
    account: 'Simple',
    entryPoint: '0.7',
    type: 'SimpleAccount v0.7',
    create: (client, owner) => toSimpleSmartAccount({ client, owner, entryPoint: v07 }),
  },
  {
    account: 'Simple',
    entryPoint: '0.8',
    type: 'SimpleAccount v0.8',
    create: (client, owner) => toSimpleSmartAccount({ client, owner, entryPoint: v08 }),
  },
  {
    account: 'Safe 1.4.1',
    entryPoint: '0.6',
    type: 'Safe 1.4.1',
    create: (client, owner) =>
      toSafeSmartAccount({ client, owners: [owner], version: '1.4.1', entryPoint: v06 }),
  },
  {
    account: 'Safe 1.4.1',
    entryPoint: '0.7',
    type: 'Safe 1.4.1',
    create: (client, owner) =>
      toSafeSmartAccount({ client, owners: [owner], version: '1.4.1', entryPoint: v07 }),
  },
  {
    account: 'Safe 1.5.0',
    entryPoint: '0.7',
    type: 'Safe 1.5.0',
    create: (client, owner) =>
      toSafeSmartAccount({ client, owners: [owner], version: '1.5.0', entryPoint: v07 }),
  },
  {
    account: 'Kernel 0.2.2',
    entryPoint: '0.6',
    type: 'Kernel v2.2',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.2.2', entryPoint: v06 }),
  },
  {
    account: 'Kernel 0.2.4',
    entryPoint: '0.6',
    type: 'Kernel v2.4',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.2.4', entryPoint: v06 }),
  },
  {
    account: 'Kernel 0.3.0',
    entryPoint: '0.7',
    type: 'Kernel v3.0',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.3.0-beta', entryPoint: v07 }),
  },
  {
    account: 'Kernel 0.3.1',
    entryPoint: '0.7',
    type: 'Kernel v3.1',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.3.1', entryPoint: v07 }),
  },
  {
    account: 'Kernel 0.3.3',
    entryPoint: '0.7',
    type: 'Kernel v3.3',
    create: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.3.3', entryPoint: v07 }),
  },
  {
    account: 'LightAccount 1.1.0',
    entryPoint: '0.6',
    type: 'LightAccount v1.1.0',
    create: (client, owner) => toLightSmartAccount({ client, owner, version: '1.1.0', entryPoint: v06 }),
  },
  {
    account: 'LightAccount 2.0.0',
    entryPoint: '0.7',
    type: 'LightAccount v2.0.0',
    create: (client, owner) => toLightSmartAccount({ client, owner, version: '2.0.0', entryPoint: v07 }),
  },
  {
    account: 'Biconomy Smart Account v2',
    entryPoint: '0.6',
    type: 'Biconomy Smart Account v2',
    create: (client, owner) => toBiconomySmartAccount({ client, owners: [owner], entryPoint: v06 }),
  },
  {
    account: 'Nexus 1.0.0',
    entryPoint: '0.7',
    type: 'Nexus 1.0',
    create: (client, owner) =>
      toNexusSmartAccount({ client, owners: [owner], version: '1.0.0', entryPoint: v07 }),
    refusedInSafeMode: NEXUS_SAFE_MODE_REFUSAL,
  },
  {
    account: 'Etherspot',
    entryPoint: '0.7',
    type: 'Etherspot modular wallet',
    create: (client, owner) => toEtherspotSmartAccount({ client, owners: [owner], entryPoint: v07 }),
  },
  {
    account: 'thirdweb',
    entryPoint: '0.6',
    type: 'thirdweb',
    create: (client, owner) => toThirdwebSmartAccount({ client, owner, entryPoint: v06 }),
  },
  {
    account: 'thirdweb',
    entryPoint: '0.7',
    type: 'thirdweb',
    create: (client, owner) => toThirdwebSmartAccount({ client, owner, entryPoint: v07 }),
  },
]

describe.each(accounts)(
  'permissionless $account (EntryPoint $entryPoint)',
  ({ account, entryPoint, type, create, refusedInSafeMode }) => {
    // An account safe mode refuses is proven with the safety rules off, and its cells say so.
    const cellAccount = refusedInSafeMode ? `${account} (unsafe mode)` : account
    const inMode = <T>(run: () => Promise<T>) => (refusedInSafeMode ? inUnsafeMode(setup, run) : run())

    if (refusedInSafeMode)
      it(`is refused in safe mode: ${refusedInSafeMode.why} [${refusedInSafeMode.rule}]`, () =>
        expectRefusedInSafeMode(setup, create, refusedInSafeMode))

    it('deploys the account and calls a contract, sponsored by the paymaster through ERC-7677', async (context) => {
      proveClientCell(context, {
        client: 'permissionless 0.4',
        account: cellAccount,
        entryPoint,
        payment: 'sponsored',
      })
      await inMode(() => expectSponsoredMint(setup, create))
    })

    it(`names the account type in Activity: ${type}, from the factory when deploying and from the chain after`, () =>
      inMode(async () => {
        const { bundlerClient, hash } = await expectSponsoredMint(setup, create)
        expect(await accountTypeOf(setup, hash)).toBe(type)
        const next = await bundlerClient.sendUserOperation({ calls: [setup.mint(randomAddress(), 1n)] })
        expect(
          (await bundlerClient.waitForUserOperationReceipt({ hash: next, timeout: 30_000 })).success,
        ).toBe(true)
        expect(await accountTypeOf(setup, next)).toBe(type)
      }))

    it('deploys the account with a batch of two calls, paying for its own gas', async (context) => {
      proveClientCell(context, {
        client: 'permissionless 0.4',
        account: cellAccount,
        entryPoint,
        payment: 'self-paid',
      })
      await inMode(() => expectSelfPaidMint(setup, create))
    })
  },
)

describe('permissionless Trust (Barz, EntryPoint 0.6)', () => {
  const create: CreateAccount = (client, owner) => toTrustSmartAccount({ client, owner, entryPoint: v06 })
  const trustFallbackHandler = getZooAddress('trustDefaultFallbackHandler')
  it('is refused in safe mode: its validation reads the facet table of the DefaultFallbackHandler, an unstaked non-entity contract [STO-033]', async () => {
    const { bundlerClient } = await createAccountClient(setup, create, true)
    const error = await bundlerClient
      .sendUserOperation({ calls: [setup.mint(randomAddress(), 1n)] })
      .catch((e) => e)
    expect(String(error?.details)).toContain(`of ${trustFallbackHandler}`)
    expect(String(error?.details)).toContain('[STO-033]')
  })

  it('works sponsored and self-paid with the safety rules off (--unsafe), as peers in unsafe mode do', async (context) => {
    const cell = { client: 'permissionless 0.4', account: 'Trust (unsafe mode)', entryPoint: '0.6' } as const
    proveClientCell(context, { ...cell, payment: 'sponsored' }, { ...cell, payment: 'self-paid' })
    await inUnsafeMode(setup, async () => {
      await expectSponsoredMint(setup, create)
      await expectSelfPaidMint(setup, create)
    })
  })
})
