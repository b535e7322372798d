import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseEther,
} from 'viem'
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

export async function deployExplainContracts(service: ServiceUnderTest, api: Api): Promise<ExplainSetup> {
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
  const artifacts = compileSolidityFixture('ExplainContracts.sol')
  const { Ledger, Vault } = artifacts
  if (!Ledger || !Vault) throw new Error('ExplainContracts.sol has no Ledger or Vault')
  const deploy = async (artifact: SolidityArtifact, args: unknown[]) => {
    const hash = await wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args,
    } as never)
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    return getAddress(receipt.contractAddress as Address)
  }
  const ledger = await deploy(Ledger, [])
  const vault = await deploy(Vault, [ledger])

  const dapp = await api.rest<{ apiKey: string }>('POST', '/api/v2/public/sdk/paymaster', {
    name: 'explain-dapp',
    type: 'HYBRID',
    chainId: service.chainId,
    version: '1',
  })
  const apiKey = dapp.body.data?.apiKey ?? ''
  for (const [name, address, abi] of [
    ['Ledger', ledger, Ledger.abi],
    ['Vault', vault, Vault.abi],
  ] as const) {
    const registered = await api.rest(
      'POST',
      '/api/v2/public/sdk/smart-contract',
      { name, address, abi: JSON.stringify(abi), whitelistedMethods: [] },
      apiKey,
    )
    if (registered.status !== 200)
      throw new Error(`${name} not registered: ${JSON.stringify(registered.body)}`)
  }
  return {
    ledger,
    vault,
    withdraw: (amount) => encodeFunctionData({ abi: Vault.abi, functionName: 'withdraw', args: [amount] }),
    async credit(who, amount) {
      const hash = await wallet.sendTransaction({
        to: ledger,
        data: encodeFunctionData({ abi: Ledger.abi, functionName: 'credit', args: [who, amount] }),
      })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') throw new Error('credit reverted')
    },
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
 * The sandbox account's operation making one call, built and signed by the service, sent with fixed limits and
 * mined: its userOpHash once it has a receipt.
 */
export async function sendAndMine(
  service: ServiceUnderTest,
  api: Api,
  account: Address,
  call: { to: Address; data: Hex },
): Promise<Hex> {
  const built = await api.json<{ data: { entryPoint: Address; userOperation: Record<string, unknown> } }>(
    'POST',
    `/console/api/sandbox/accounts/${account}/user-operation`,
    { calls: [{ to: call.to, value: '0', data: call.data }] },
  )
  const { entryPoint, userOperation } = built.body.data
  const signed = await api.json<{ data: { userOperation: Record<string, unknown> } }>(
    'POST',
    `/console/api/sandbox/accounts/${account}/sign`,
    { userOperation: { ...userOperation, ...LIMITS } },
  )
  const hash = await bundler<Hex>(service, 'eth_sendUserOperation', [
    signed.body.data.userOperation,
    entryPoint,
  ])
  for (let i = 0; i < 100; i++) {
    if (await bundler(service, 'eth_getUserOperationReceipt', [hash])) return hash
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`no receipt for ${hash}`)
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
