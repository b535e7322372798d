import {
  type Abi,
  type Address,
  BaseError,
  createClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseEther,
  type SignedAuthorization,
} from 'viem'
import {
  entryPoint06Address,
  entryPoint07Address,
  entryPoint08Address,
  entryPoint09Address,
  formatUserOperationRequest,
} from 'viem/account-abstraction'
import type { Chain } from '../../../src/main/service/chain'
import { compileSolidityFixture, type SolidityArtifact } from '../../helpers/compileSolidityFixture'
import { createFundedWallet, type FundedWallet } from '../../helpers/createFundedWallet'
import { requestJson, type TestService } from '../../helpers/startTestService'
import {
  callBundler,
  createSimple7702Client,
  createSimpleAccountClient,
  hex,
} from '../bundler/bundlerTestKit'
import { createDapp } from '../paymaster/paymasterTestKit'

/** Every EntryPoint version the service serves, by version. */
export const ENTRY_POINTS = {
  '0.6': entryPoint06Address,
  '0.7': entryPoint07Address,
  '0.8': entryPoint08Address,
  '0.9': entryPoint09Address,
} as const
export type EntryPointVersion = keyof typeof ENTRY_POINTS

/** Generous fixed limits: the operations are sent as they are, without an estimate (which would refuse a revert). */
export const LIMITS = {
  callGasLimit: 200_000n,
  verificationGasLimit: 600_000n,
  preVerificationGas: 100_000n,
  maxFeePerGas: parseEther('0.00000002'),
  maxPriorityFeePerGas: 1_000_000_000n,
}

/** A viem client of the bundler URL with no account: operations are sent as they are. */
export function rawBundler(service: TestService) {
  return createClient({ transport: http(service.info().bundlerUrl, { retryCount: 0 }) })
}

export type ExplainContracts = Record<
  'ledger' | 'vault' | 'burner' | 'badAccount' | 'paymaster' | 'factory',
  Address
>

export type ExplainFixture = {
  contracts: ExplainContracts
  artifacts: Record<string, SolidityArtifact>
  /** The test's own funded wallet: what it deploys and transacts with (never the service's executor). */
  wallet: FundedWallet
}

/**
 * ExplainContracts.sol deployed from a funded wallet of the test's own and registered with their ABIs under a new
 * dApp (the names the service decodes them by): Ledger, Vault (over the Ledger), Burner, BadSignatureAccount and
 * RefusingFactory and RefusingPaymaster (deposited and staked on every EntryPoint the service serves: safe mode admits a
 * paymaster that returns a context only when it is staked, ERC-7562 EREP-050).
 */
export async function deployExplainContracts(service: TestService): Promise<ExplainFixture> {
  const chain = service.chain as Chain
  const artifacts = compileSolidityFixture('ExplainContracts.sol')
  const wallet = await createFundedWallet(chain)
  const deploy = async (artifact: SolidityArtifact, args: unknown[] = []): Promise<Address> => {
    const hash = await wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args,
    } as never)
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
    return getAddress(receipt.contractAddress as Address)
  }
  const ledger = await deploy(artifacts.Ledger!)
  const contracts: ExplainContracts = {
    ledger,
    vault: await deploy(artifacts.Vault!, [ledger]),
    burner: await deploy(artifacts.Burner!),
    badAccount: await deploy(artifacts.BadSignatureAccount!),
    paymaster: await deploy(artifacts.RefusingPaymaster!),
    factory: await deploy(artifacts.RefusingFactory!),
  }
  for (const entryPoint of Object.values(ENTRY_POINTS)) {
    await wallet.transact(entryPoint, {
      data: encodeFunctionData({
        abi: parseAbi(['function depositTo(address account) payable']),
        functionName: 'depositTo',
        args: [contracts.paymaster],
      }),
      value: 10n ** 18n,
    })
    await wallet.transact(contracts.paymaster, {
      data: encodeFunctionData({
        abi: artifacts.RefusingPaymaster!.abi,
        functionName: 'addStake',
        args: [entryPoint, 86_400],
      }),
      value: 10n ** 17n,
    })
  }
  const { apiKey } = await createDapp(service)
  const register = async (name: string, address: Address, abi: Abi) => {
    const res = await requestJson(`${service.baseUrl}/api/v2/public/sdk/smart-contract`, {
      method: 'POST',
      headers: { authToken: service.authToken(), apiKey },
      body: { name, address, abi: JSON.stringify(abi), whitelistedMethods: [] },
    })
    if (res.status !== 200) throw new Error(`contract not registered: ${JSON.stringify(res.body)}`)
  }
  await register('Ledger', contracts.ledger, artifacts.Ledger!.abi)
  await register('Vault', contracts.vault, artifacts.Vault!.abi)
  await register('Burner', contracts.burner, artifacts.Burner!.abi)
  await register('BadSignatureAccount', contracts.badAccount, artifacts.BadSignatureAccount!.abi)
  await register('RefusingPaymaster', contracts.paymaster, artifacts.RefusingPaymaster!.abi)
  await register('RefusingFactory', contracts.factory, artifacts.RefusingFactory!.abi)
  return { contracts, artifacts, wallet }
}

/** The JSON-RPC error a viem call failed with: its code, message and data, as the service sent them. */
export async function rpcErrorOf(
  call: Promise<unknown>,
): Promise<{ code: number; message: string; data: any }> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof BaseError)) throw new Error(`expected a viem error, got ${String(err)}`)
  const rpc = err.walk(
    (e) => typeof (e as { code?: unknown }).code === 'number' && 'data' in (e as object),
  ) as (BaseError & { code: number; data: unknown; details: string }) | null
  if (!rpc) throw new Error(`no JSON-RPC error in ${err.message}`)
  return { code: rpc.code, message: rpc.details, data: rpc.data }
}

/**
 * An operation of BadSignatureAccount (its validateUserOp reverts BadSignature()) in the wire form, at the chain's
 * fees; with fixed gas limits unless `withLimits` is false (an estimate's input).
 */
export async function badSignatureOperation(
  service: TestService,
  sender: Address,
  withLimits = true,
  version: EntryPointVersion = '0.7',
) {
  const { body: fees } = await callBundler(service, 'biconomy_getGasFeeValues', [])
  return {
    ...(version === '0.6' ? { initCode: '0x' as Hex, paymasterAndData: '0x' as Hex } : {}),
    sender,
    nonce: '0x0',
    callData: '0x' as Hex,
    ...(withLimits
      ? { callGasLimit: hex(100_000n), verificationGasLimit: hex(200_000n), preVerificationGas: hex(60_000n) }
      : {}),
    maxFeePerGas: fees.result.maxFeePerGas as Hex,
    maxPriorityFeePerGas: fees.result.maxPriorityFeePerGas as Hex,
    signature: '0x' as Hex,
  }
}

type Calls = { to: Address; data?: Hex; value?: bigint }[]

/**
 * A fresh account on `version` with what the error tests do with it: a SimpleAccount (v0.6-v0.8, funded with
 * `fundWei`) or viem's Simple7702Account (v0.9, an EOA funded with 1 ETH, its authorization signed by its owner until
 * it is delegated). `send` sends `calls` through viem's bundler client, `estimate` estimates them, `signed` is the
 * signed operation in the wire form (for the raw surfaces: simulate, a send with options); `fields` override the
 * operation's (limits, paymaster).
 */
export async function createVersionAccount(
  service: TestService,
  version: EntryPointVersion,
  fundWei = 10n ** 18n,
) {
  const { account, bundlerClient, client, owner } =
    version === '0.9'
      ? await createSimple7702Client(service, '0.9')
      : await createSimpleAccountClient(service, fundWei, version)
  /** v0.9's authorization while the EOA has no delegation yet (its next transaction nonce). */
  const authorization = async (): Promise<SignedAuthorization | undefined> => {
    if (version !== '0.9' || (await client.getCode({ address: owner.address }))) return undefined
    return owner.signAuthorization({
      address: service.chain!.addresses.simple7702AccountV09,
      chainId: service.chain!.chainId,
      nonce: await client.getTransactionCount({ address: owner.address }),
    })
  }
  return {
    address: account.address,
    account,
    bundlerClient,
    entryPoint: ENTRY_POINTS[version],
    authorization,
    async send(calls: Calls, fields: Record<string, unknown> = {}) {
      return bundlerClient.sendUserOperation({
        calls,
        authorization: await authorization(),
        ...fields,
      } as never)
    },
    async estimate(calls: Calls, fields: Record<string, unknown> = {}) {
      return bundlerClient.estimateUserOperationGas({
        calls,
        authorization: await authorization(),
        ...fields,
      } as never)
    },
    async signed(calls: Calls, fields: Record<string, unknown> = {}) {
      // One signature for the SimpleAccount and Simple7702Account clients (their unions do not call as one).
      const prepare = bundlerClient.prepareUserOperation as (p: unknown) => Promise<Record<string, unknown>>
      const prepared = await prepare({ calls, authorization: await authorization(), ...fields })
      const signature = await account.signUserOperation(prepared as never)
      return formatUserOperationRequest({ ...prepared, signature } as never) as Record<string, unknown>
    },
  }
}

/** An explanation in a failure message: its status, reason, notes and phases, cut to a readable length. */
export function describeExplanation(explanation: object): string {
  const { status, reason, notes, phases } = explanation as Record<string, unknown>
  return JSON.stringify({ status, reason, notes, phases }).slice(0, 2_000)
}
