import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseEther,
} from 'viem'
import {
  createBundlerClient,
  entryPoint07Address,
  entryPoint08Address,
  formatUserOperationRequest,
  getUserOperationHash,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { compileSolidityFixture, type SolidityArtifact } from '../helpers/compileSolidityFixture'
import type { Api, ServiceUnderTest } from './fixtures'

/**
 * Arranging the operations the explanation tests look at, through the service's public surfaces: the test's own
 * funded wallet deploys Ledger and Vault (test/fixtures/contracts/ExplainContracts.sol) on the chain RPC, a dApp
 * registers them (so the service names them), and a sandbox account (its key in the service) sends.
 */
export type ExplainSetup = {
  ledger: Address
  vault: Address
  /** Vault.withdraw(amount)'s calldata. */
  withdraw: (amount: bigint) => Hex
  /** Ledger.credit(who, amount) from the test's wallet. */
  credit: (who: Address, amount: bigint) => Promise<void>
}

/** The test's own funded wallet on the service's chain RPC (never the service's executor), and its deployer. */
async function createTestWallet(service: ServiceUnderTest) {
  if (!service.rpcUrl) throw new Error('the service has no chain RPC')
  const chain = defineChain({
    id: service.chainId,
    name: 'opstation',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [service.rpcUrl] } },
  })
  const publicClient = createPublicClient({ chain, transport: http(service.rpcUrl) })
  const account = privateKeyToAccount(generatePrivateKey())
  await publicClient.request({
    method: 'anvil_setBalance' as never,
    params: [account.address, `0x${parseEther('100').toString(16)}`] as never,
  })
  const wallet = createWalletClient({ account, chain, transport: http(service.rpcUrl) })
  return {
    publicClient,
    async deploy(artifact: SolidityArtifact, args: unknown[] = []) {
      const hash = await wallet.deployContract({
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args,
      } as never)
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      return getAddress(receipt.contractAddress as Address)
    },
    async transact(to: Address, data: Hex, value = 0n) {
      const hash = await wallet.sendTransaction({ to, data, value })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') throw new Error(`the transaction to ${to} reverted`)
    },
  }
}

/** A new dApp registers the contracts with their ABIs: the service names them by these names. */
async function registerContracts(
  service: ServiceUnderTest,
  api: Api,
  dappName: string,
  contracts: [name: string, address: Address, abi: Abi][],
) {
  const dapp = await api.rest<{ apiKey: string }>('POST', '/api/v2/public/sdk/paymaster', {
    name: dappName,
    type: 'HYBRID',
    chainId: service.chainId,
    version: '1',
  })
  const apiKey = dapp.body.data?.apiKey
  if (!apiKey) throw new Error(`dApp ${dappName} not created: ${JSON.stringify(dapp.body)}`)
  for (const [name, address, abi] of contracts) {
    const registered = await api.rest(
      'POST',
      '/api/v2/public/sdk/smart-contract',
      { name, address, abi: JSON.stringify(abi), whitelistedMethods: [] },
      apiKey,
    )
    if (registered.status !== 200)
      throw new Error(`${name} not registered: ${JSON.stringify(registered.body)}`)
  }
}

/** ExplainContracts.sol's contracts, by name. */
function explainArtifacts(names: string[]): Record<string, SolidityArtifact> {
  const artifacts = compileSolidityFixture('ExplainContracts.sol')
  for (const name of names) if (!artifacts[name]) throw new Error(`ExplainContracts.sol has no ${name}`)
  return artifacts as Record<string, SolidityArtifact>
}

export async function deployExplainContracts(service: ServiceUnderTest, api: Api): Promise<ExplainSetup> {
  const { Ledger, Vault } = explainArtifacts(['Ledger', 'Vault']) as Record<
    'Ledger' | 'Vault',
    SolidityArtifact
  >
  const { deploy, transact } = await createTestWallet(service)
  const ledger = await deploy(Ledger)
  const vault = await deploy(Vault, [ledger])
  await registerContracts(service, api, 'explain-dapp', [
    ['Ledger', ledger, Ledger.abi],
    ['Vault', vault, Vault.abi],
  ])
  return {
    ledger,
    vault,
    withdraw: (amount) => encodeFunctionData({ abi: Vault.abi, functionName: 'withdraw', args: [amount] }),
    credit: (who, amount) =>
      transact(ledger, encodeFunctionData({ abi: Ledger.abi, functionName: 'credit', args: [who, amount] })),
  }
}

/** The contracts each failure case of the explanation tests runs into, deployed and registered. */
export type FailureSetup = {
  /** Burner.burn(rounds): writes `rounds` storage slots. */
  burner: Address
  burn: (rounds: bigint) => Hex
  /** BadSignatureAccount: its validateUserOp reverts BadSignature() (AA23). */
  badAccount: Address
  /**
   * RefusingPaymaster, deposited and staked on EntryPoint v0.7: it refuses an operation whose paymasterData is 0x01
   * (AA33) and its postOp always reverts PostOpFailed.
   */
  paymaster: Address
  publicClient: Awaited<ReturnType<typeof createTestWallet>>['publicClient']
}

export async function deployFailureContracts(service: ServiceUnderTest, api: Api): Promise<FailureSetup> {
  const artifacts = explainArtifacts(['Burner', 'BadSignatureAccount', 'RefusingPaymaster'])
  const { Burner, BadSignatureAccount, RefusingPaymaster } = artifacts as Record<string, SolidityArtifact> &
    Record<'Burner' | 'BadSignatureAccount' | 'RefusingPaymaster', SolidityArtifact>
  const { deploy, transact, publicClient } = await createTestWallet(service)
  const burner = await deploy(Burner)
  const badAccount = await deploy(BadSignatureAccount)
  const paymaster = await deploy(RefusingPaymaster)
  // Safe mode admits a paymaster that returns a context only when it is staked (ERC-7562 EREP-050).
  await transact(
    entryPoint07Address,
    encodeFunctionData({
      abi: parseAbi(['function depositTo(address account) payable']),
      functionName: 'depositTo',
      args: [paymaster],
    }),
    parseEther('1'),
  )
  await transact(
    paymaster,
    encodeFunctionData({
      abi: RefusingPaymaster.abi,
      functionName: 'addStake',
      args: [entryPoint07Address, 86_400],
    }),
    parseEther('0.1'),
  )
  await registerContracts(service, api, 'failures-dapp', [
    ['Burner', burner, Burner.abi],
    ['BadSignatureAccount', badAccount, BadSignatureAccount.abi],
    ['RefusingPaymaster', paymaster, RefusingPaymaster.abi],
  ])
  return {
    burner,
    burn: (rounds) => encodeFunctionData({ abi: Burner.abi, functionName: 'burn', args: [rounds] }),
    badAccount,
    paymaster,
    publicClient,
  }
}

/** A v0.7 SimpleAccount of the Sandbox (the service holds its key), given 1 ETH from the faucet. */
export async function createSandboxAccount(api: Api): Promise<Address> {
  const created = await api.json<{ data: { address: Address } }>('POST', '/console/api/sandbox/accounts', {
    type: 'SIMPLE_ACCOUNT_V07',
  })
  const address = created.body.data.address
  const funded = await api.json('POST', '/console/api/sandbox/faucet', { address, asset: 'ETH', amount: '1' })
  if (funded.status !== 200) throw new Error(`faucet: ${JSON.stringify(funded.body)}`)
  return address
}

/** Generous fixed limits: sent without an estimate, which would refuse an operation whose execution reverts. */
const LIMITS = { callGasLimit: '0x30d40', verificationGasLimit: '0x927c0', preVerificationGas: '0x186a0' }

async function bundler<T>(service: ServiceUnderTest, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(service.bundlerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: T; error?: unknown }
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
  return body.result as T
}

/**
 * The sandbox account's operation making one call, built by the service and signed with its key, with fixed limits
 * and `fields` (a paymaster's, other limits) over them: its EntryPoint, the signed operation and its userOpHash.
 */
export async function signSandboxOperation(
  api: Api,
  account: Address,
  call: { to: Address; data: Hex; value?: bigint },
  fields: Record<string, unknown> = {},
): Promise<{ entryPoint: Address; userOperation: Record<string, unknown>; userOpHash: Hex }> {
  const built = await api.json<{ data: { entryPoint: Address; userOperation: Record<string, unknown> } }>(
    'POST',
    `/console/api/sandbox/accounts/${account}/user-operation`,
    { calls: [{ to: call.to, value: String(call.value ?? 0n), data: call.data }] },
  )
  const { entryPoint, userOperation } = built.body.data
  const signed = await api.json<{ data: { userOperation: Record<string, unknown>; userOpHash: Hex } }>(
    'POST',
    `/console/api/sandbox/accounts/${account}/sign`,
    { userOperation: { ...userOperation, ...LIMITS, ...fields } },
  )
  return { entryPoint, ...signed.body.data }
}

/** The operation sent with eth_sendUserOperation, once it has a receipt: its userOpHash. */
export async function sendAndWaitForReceipt(
  service: ServiceUnderTest,
  op: { entryPoint: Address; userOperation: Record<string, unknown> },
): Promise<Hex> {
  const hash = await bundler<Hex>(service, 'eth_sendUserOperation', [op.userOperation, op.entryPoint])
  for (let i = 0; i < 100; i++) {
    if (await bundler(service, 'eth_getUserOperationReceipt', [hash])) return hash
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`no receipt for ${hash}`)
}

/** The sandbox account's operation making one call, sent with fixed limits and mined: its userOpHash. */
export async function sendAndMine(
  service: ServiceUnderTest,
  api: Api,
  account: Address,
  call: { to: Address; data: Hex },
  fields: Record<string, unknown> = {},
): Promise<Hex> {
  return sendAndWaitForReceipt(service, await signSandboxOperation(api, account, call, fields))
}

/** eth_sendUserOperation of an operation the bundler refuses: its JSON-RPC error (it throws if accepted). */
export async function sendRejected(
  service: ServiceUnderTest,
  userOperation: Record<string, unknown>,
  entryPoint: Address,
): Promise<{ code: number; message: string }> {
  const res = await fetch(service.bundlerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_sendUserOperation',
      params: [userOperation, entryPoint],
    }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
  if (!body.error) throw new Error(`the operation was accepted: ${JSON.stringify(body.result)}`)
  return body.error
}

/** The bundler's current fees (biconomy_getGasFeeValues), for an operation built by the test. */
export async function gasFees(
  service: ServiceUnderTest,
): Promise<{ maxFeePerGas: Hex; maxPriorityFeePerGas: Hex }> {
  return bundler(service, 'biconomy_getGasFeeValues', [])
}

/** The callData a sandbox account's operation has for this call (the service encodes it as the account does). */
export async function accountCallData(
  api: Api,
  account: Address,
  call: { to: Address; data: Hex },
): Promise<Hex> {
  const built = await api.json<{ data: { userOperation: { callData: Hex } } }>(
    'POST',
    `/console/api/sandbox/accounts/${account}/user-operation`,
    { calls: [{ to: call.to, value: '0', data: call.data }] },
  )
  return built.body.data.userOperation.callData
}

/**
 * An operation of viem's Simple7702Account (EntryPoint v0.8) for a fresh EOA of the test's own, carrying an EIP-7702
 * authorization signed for a nonce 5 past the EOA's: the wire form, its userOpHash and the nonces.
 */
export async function staleAuthorizationOperation(
  service: ServiceUnderTest,
  publicClient: FailureSetup['publicClient'],
) {
  const owner = privateKeyToAccount(generatePrivateKey())
  await publicClient.request({
    method: 'anvil_setBalance' as never,
    params: [owner.address, `0x${parseEther('1').toString(16)}`] as never,
  })
  const account = await toSimple7702SmartAccount({ client: publicClient, owner, entryPoint: '0.8' })
  const bundlerClient = createBundlerClient({
    client: publicClient,
    account,
    transport: http(service.bundlerUrl),
  })
  const nonce = await publicClient.getTransactionCount({ address: owner.address })
  const authorization = await owner.signAuthorization({
    address: account.authorization.address,
    chainId: service.chainId,
    nonce: nonce + 5,
  })
  const fees = await gasFees(service)
  const prepared = await bundlerClient.prepareUserOperation({
    calls: [{ to: privateKeyToAccount(generatePrivateKey()).address, value: 1n }],
    callGasLimit: BigInt(LIMITS.callGasLimit),
    verificationGasLimit: BigInt(LIMITS.verificationGasLimit),
    preVerificationGas: BigInt(LIMITS.preVerificationGas),
    maxFeePerGas: BigInt(fees.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(fees.maxPriorityFeePerGas),
    authorization,
  })
  const userOperation = { ...prepared, signature: await account.signUserOperation(prepared) }
  return {
    entryPoint: entryPoint08Address,
    userOperation: formatUserOperationRequest(userOperation) as Record<string, unknown>,
    userOpHash: getUserOperationHash({
      chainId: service.chainId,
      entryPointAddress: entryPoint08Address,
      entryPointVersion: '0.8',
      userOperation,
    }),
    nonce,
    stale: nonce + 5,
  }
}
