import {
  type Address,
  concat,
  encodeFunctionData,
  type Hex,
  type LocalAccount,
  type PublicClient,
} from 'viem'
import { entryPoint06Address, entryPoint07Address, type SmartAccount } from 'viem/account-abstraction'
import { toAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { getZooAddress } from '../../../src/main/service/chain/accountZoo/zooContracts'
import {
  SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS,
  type SandboxAccount,
  type SandboxAccountType,
  type SandboxCall,
} from '../../../src/shared/sandbox'
import { getSharedTestService } from '../../helpers/sharedTestService'
import { requestJson, type TestService } from '../../helpers/startTestService'
import { callBundler, publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { inUnsafeMode } from '../clients/clientTestKit'
import {
  callConsole,
  callPaymaster,
  createDapp,
  registerToken,
  tokenBalance,
} from '../paymaster/paymasterTestKit'

export const v06 = { address: entryPoint06Address, version: '0.6' } as const
export const v07 = { address: entryPoint07Address, version: '0.7' } as const

/** One sandbox account type of the account zoo, and the SDK account it must match. */
export type ZooKind = {
  type: SandboxAccountType
  entryPoint: '0.6' | '0.7'
  /** The zoo contract its first operation calls (v0.7 `factory`, the first 20 bytes of v0.6 `initCode`). */
  factory: string
  /** How Activity names the account type. */
  activityName: string
} & (
  | {
      /** The same account as its SDK builds it for the owner: its address, deployment, callData and nonce. */
      sdk: (client: PublicClient, owner: LocalAccount) => Promise<SmartAccount>
      address?: never
    }
  | {
      sdk?: never
      /**
       * For an account whose SDK this package does not hold (account-kit lives in test/sdk-clients, whose tests
       * drive it against the bundler): the owner's account address as its factory computes it.
       */
      address: (client: PublicClient, owner: Address) => Promise<Address>
    }
)

/** The sandbox account's owner as a local account an SDK can derive addresses from (it cannot sign). */
export const ownerOnly = (address: Address): LocalAccount =>
  toAccount({
    address,
    signMessage: () => Promise.reject(new Error('the owner key stays in the service')),
    signTransaction: () => Promise.reject(new Error('the owner key stays in the service')),
    signTypedData: () => Promise.reject(new Error('the owner key stays in the service')),
  })

export type SandboxService = {
  service: TestService
  apiKey: string
  /** The test token, registered with the dApp with `mint` whitelisted. */
  token: Address
}

/**
 * The worker's shared service (getSharedTestService) with a dApp of the file's own whose policy sponsors the test
 * token's `mint`: the paymaster must decode each account's callData to find it. Read the fields inside tests.
 */
export function withSandboxService(): SandboxService {
  const setup = {} as SandboxService
  beforeAll(async () => {
    setup.service = await getSharedTestService()
    setup.apiKey = (await createDapp(setup.service)).apiKey
    setup.token = await registerToken(setup.service, setup.apiKey, ['mint'])
  }, 60_000)
  return setup
}

/** A console API POST; throws with the answer unless it is a 200. */
export async function postConsole(setup: SandboxService, path: string, body: unknown) {
  const res = await requestJson(`${setup.service.baseUrl}${path}`, {
    method: 'POST',
    headers: { authToken: setup.service.authToken() },
    body,
  })
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}

export const mintCall = (setup: SandboxService, to: Address, amount: bigint): SandboxCall => ({
  to: setup.token,
  data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }),
})

/** build → pm_sponsorUserOperation (ctx.entryPoint) → sign, as the console does: the signed op and its EntryPoint. */
export async function buildSponsoredAndSigned(
  setup: SandboxService,
  account: SandboxAccount,
  calls: SandboxCall[],
) {
  const built = await postConsole(setup, `/console/api/sandbox/accounts/${account.address}/user-operation`, {
    calls,
  })
  const sponsored = await callPaymaster(setup.service, setup.apiKey, 'pm_sponsorUserOperation', [
    built.userOperation,
    { mode: 'SPONSORED', entryPoint: built.entryPoint },
  ])
  expect(sponsored.body.error).toBeUndefined()
  const { mode: _m, MODE: _M, ...fields } = sponsored.body.result
  const signed = await postConsole(setup, `/console/api/sandbox/accounts/${account.address}/sign`, {
    userOperation: { ...built.userOperation, ...fields },
  })
  return { built, signed }
}

/** The sponsored run, sent to the bundler (in safe mode), with its receipt. */
export async function runSponsored(setup: SandboxService, account: SandboxAccount, calls: SandboxCall[]) {
  const { built, signed } = await buildSponsoredAndSigned(setup, account, calls)
  const sent = (
    await callBundler(setup.service, 'eth_sendUserOperation', [signed.userOperation, built.entryPoint])
  ).body
  expect(sent.error).toBeUndefined()
  expect(sent.result).toBe(signed.userOpHash)
  let receipt: { success: boolean; sender: string; paymaster: string; reason?: string } | null = null
  for (let i = 0; i < 200 && !receipt; i++) {
    receipt = (await callBundler(setup.service, 'eth_getUserOperationReceipt', [sent.result])).body.result
    if (!receipt) await new Promise((r) => setTimeout(r, 50))
  }
  return { built, signed, receipt: receipt! }
}

/** The account type Activity shows for an operation (named from its factory, or read from the chain). */
export async function activityAccountType(setup: SandboxService, userOpHash: string): Promise<string | null> {
  for (let i = 0; i < 20; i++) {
    const res = await callConsole(setup.service, `/console/api/user-operations/${userOpHash}`)
    if (res.body.data?.account) return res.body.data.account
    await new Promise((r) => setTimeout(r, 50))
  }
  return null
}

/**
 * What the SDK would send for these calls, read before the operation runs, in lower case (the SDKs spell addresses
 * either way): its deployment fields while undeployed (v0.6 packs them into initCode), callData and nonce (key 0:
 * the SDK's default key is a timestamp; Kernel v3, Nexus and Etherspot still put their validator in it).
 */
async function sdkOperation(
  sdkAccount: SmartAccount,
  entryPoint: ZooKind['entryPoint'],
  calls: SandboxCall[],
): Promise<Record<string, string>> {
  const { factory, factoryData } = await sdkAccount.getFactoryArgs()
  const deployment: Record<string, Hex> =
    entryPoint === '0.6'
      ? { initCode: factory && factoryData ? concat([factory, factoryData]) : '0x' }
      : factory && factoryData
        ? { factory, factoryData }
        : {}
  const fields: Record<string, string> = {
    ...deployment,
    callData: await sdkAccount.encodeCalls(calls.map((c) => ({ to: c.to as Address, data: c.data as Hex }))),
    nonce: `0x${(await sdkAccount.getNonce({ key: 0n })).toString(16)}`,
  }
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.toLowerCase()]))
}

/** The operation's fields named in `expected`, in lower case, to compare with it. */
const fieldsLike = (op: Record<string, unknown>, expected: Record<string, string>) =>
  Object.fromEntries(Object.keys(expected).map((k) => [k, String(op[k]).toLowerCase()]))

/**
 * Each kind, driven as the console drives it: created at the address its SDK (or, without one, its factory)
 * computes for the owner, deployed by a sponsored first operation built as the SDK builds it, then a sponsored
 * batch; Activity names its type both times.
 */
export function describeZooKinds(setup: SandboxService, kinds: ZooKind[]) {
  describe.each(kinds)('$type', ({ type, entryPoint, factory, activityName, sdk, address }) => {
    let account: SandboxAccount
    let sdkAccount: SmartAccount | undefined
    /** The fields the SDK would send for these calls; none to compare without the SDK. */
    const expectedFields = async (calls: SandboxCall[]) =>
      sdkAccount ? await sdkOperation(sdkAccount, entryPoint, calls) : {}
    /** The factory the operation calls (lower case), or undefined when it deploys nothing. */
    const deployerOf = (op: { initCode?: string; factory?: string }) =>
      (entryPoint === '0.6'
        ? op.initCode === '0x'
          ? undefined
          : op.initCode?.slice(0, 42)
        : op.factory
      )?.toLowerCase()
    const paymaster = () =>
      entryPoint === '0.6'
        ? setup.service.chain!.addresses.verifyingPaymaster
        : setup.service.chain!.addresses.verifyingPaymasterV07

    it(`is created at the address its ${sdk ? 'SDK' : 'factory'} computes for the same owner`, async () => {
      account = await postConsole(setup, '/console/api/sandbox/accounts', { type })
      expect(account).toMatchObject({
        type,
        label: expect.any(String),
        entryPointVersion: entryPoint,
        deployed: false,
      })
      expect(account.address).not.toBe(account.owner)
      const client = publicClientOf(setup.service)
      if (sdk) {
        sdkAccount = await sdk(client, ownerOnly(account.owner as Address))
        expect(account.address).toBe(await sdkAccount.getAddress())
      } else {
        expect(account.address).toBe(await address(client, account.owner as Address))
      }
      const listed = await requestJson(`${setup.service.baseUrl}/console/api/sandbox/accounts`, {
        headers: { authToken: setup.service.authToken() },
      })
      expect(listed.body.data.find((a: SandboxAccount) => a.address === account.address)).toBeDefined()
    })

    // An account a bundler in safe mode refuses (as the console says) deploys once the safety rules are off.
    const refusal = SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS[type]
    const inMode = <T>(run: () => Promise<T>) => (refusal ? inUnsafeMode(setup, run) : run())
    if (refusal)
      it(`is refused by a bundler in safe mode for the rule the console names [${refusal.rule}]`, async () => {
        const { built, signed } = await buildSponsoredAndSigned(setup, account, [
          mintCall(setup, randomAddress(), 1n),
        ])
        const sent = (
          await callBundler(setup.service, 'eth_sendUserOperation', [signed.userOperation, built.entryPoint])
        ).body
        expect(sent.error?.code).toBe(-32502)
        expect(JSON.stringify(sent.error)).toContain(`[${refusal.rule}]`)
      })

    it(`deploys with a sponsored first operation that calls a contract${sdk ? ', built as its SDK builds it' : ''}${refusal ? ' (safety rules off)' : ''}; Activity names it ${activityName}`, () =>
      inMode(async () => {
        const alice = randomAddress()
        const calls = [mintCall(setup, alice, 7n)]
        const expected = await expectedFields(calls)
        const first = await runSponsored(setup, account, calls)
        expect(first.built).toMatchObject({ entryPointVersion: entryPoint, deployed: false })
        expect(deployerOf(first.built.userOperation)).toBe(getZooAddress(factory).toLowerCase())
        expect(fieldsLike(first.built.userOperation, expected)).toEqual(expected)
        expect(first.receipt).toMatchObject({
          success: true,
          sender: account.address,
          paymaster: paymaster(),
        })
        expect(await tokenBalance(setup.service, setup.token, alice)).toBe(7n)
        const client = setup.service.chain!.publicClient
        expect(await client.getCode({ address: account.address as Address })).toMatch(/^0x[0-9a-f]+$/)
        expect(await client.getBalance({ address: account.address as Address })).toBe(0n)
        expect(await activityAccountType(setup, first.signed.userOpHash)).toBe(activityName)
      }))

    it(`runs a second, sponsored operation with a batch of two calls; Activity names it ${activityName} from the chain`, () =>
      inMode(async () => {
        const bob = randomAddress()
        const carol = randomAddress()
        const calls = [mintCall(setup, bob, 3n), mintCall(setup, carol, 4n)]
        const expected = await expectedFields(calls)
        const second = await runSponsored(setup, account, calls)
        expect(second.built.deployed).toBe(true)
        expect(deployerOf(second.built.userOperation)).toBeUndefined()
        expect(fieldsLike(second.built.userOperation, expected)).toEqual(expected)
        expect(BigInt(second.built.userOperation.nonce) & 0xffffffffffffffffn).toBe(1n)
        expect(second.receipt).toMatchObject({ success: true, sender: account.address })
        expect(await tokenBalance(setup.service, setup.token, bob)).toBe(3n)
        expect(await tokenBalance(setup.service, setup.token, carol)).toBe(4n)
        const listed = await requestJson(`${setup.service.baseUrl}/console/api/sandbox/accounts`, {
          headers: { authToken: setup.service.authToken() },
        })
        expect(listed.body.data.find((a: SandboxAccount) => a.address === account.address).deployed).toBe(
          true,
        )
        expect(await activityAccountType(setup, second.signed.userOpHash)).toBe(activityName)
      }))
  })
}
