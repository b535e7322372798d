import { toSimpleSmartAccount } from 'permissionless/accounts'
import { type Address, createPublicClient, encodeFunctionData, http, type LocalAccount } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint06Address } from 'viem/account-abstraction'
import { testTokenAbi } from '../../../src/main/service/chain'
import type { ChainInfo } from '../../../src/shared/serviceInfo'
import { requestJson, type TestService } from '../../helpers/startTestService'

/** One chain of a service of several: its entry of `info().chains`, its stack, a viem client on its chain RPC. */
export function chainOf(service: TestService, chainId: number) {
  const info = service.info().chains.find((c) => c.chainId === chainId) as ChainInfo
  const stack = service.chains.get(chainId)
  if (!info || !stack) throw new Error(`the service runs no chain ${chainId}`)
  const client = createPublicClient({ chain: stack.chain.publicClient.chain, transport: http(info.rpcUrl) })
  return { info, stack, chain: stack.chain, client }
}

/** A dApp created through the dashboard API on `chainId`, with the test token registered (mint sponsored). */
export async function createDappOn(
  service: TestService,
  chainId: number,
  name = `dapp-${chainId}-${randomId()}`,
) {
  const created = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
    method: 'POST',
    headers: { authToken: service.authToken() },
    body: { name, type: 'HYBRID', chainId, version: '1.1.0' },
  })
  if (created.status !== 200) throw new Error(`paymaster not created: ${JSON.stringify(created.body)}`)
  const apiKey: string = created.body.data.apiKey
  const { info, chain } = chainOf(service, chainId)
  const token = chain.addresses.tokens[0]?.address as Address
  const registered = await requestJson(`${service.baseUrl}/api/v2/public/sdk/smart-contract`, {
    method: 'POST',
    headers: { authToken: service.authToken(), apiKey },
    body: { name: 'tUSDC', address: token, abi: JSON.stringify(testTokenAbi), whitelistedMethods: ['mint'] },
  })
  if (registered.status !== 200)
    throw new Error(`contract not registered: ${JSON.stringify(registered.body)}`)
  return { name, apiKey, token, paymasterUrl: info.paymasterUrlTemplate.replace('{apiKey}', apiKey) }
}

/**
 * A sponsored mint from a permissionless SimpleAccount of `owner` (EntryPoint v0.6, the canonical factory) on
 * `chainId`, through that chain's bundler URL and the dApp's paymaster URL; resolves once mined.
 */
export async function sendSponsoredMint(
  service: TestService,
  chainId: number,
  dapp: { token: Address; paymasterUrl: string },
  owner: LocalAccount,
  recipient: Address,
) {
  const { info, chain, client } = chainOf(service, chainId)
  const account = await toSimpleSmartAccount({
    client,
    owner,
    entryPoint: { address: entryPoint06Address, version: '0.6' },
    factoryAddress: chain.addresses.simpleAccountFactory,
  })
  const bundlerClient = createBundlerClient({
    client,
    account,
    paymaster: createPaymasterClient({ transport: http(dapp.paymasterUrl) }),
    transport: http(info.bundlerUrl),
    pollingInterval: 50,
  })
  const hash = await bundlerClient.sendUserOperation({
    calls: [
      {
        to: dapp.token,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [recipient, 5n] }),
      },
    ],
  })
  const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
  return { account, hash, receipt, bundlerClient }
}

/** One JSON-RPC call over HTTP; the whole response body (result or error). */
export async function callRpc(url: string, method: string, params: unknown[] = []) {
  const res = await requestJson(url, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method, params } })
  return res as {
    status: number
    body: { result?: any; error?: { code: number; message: string; data?: any } }
  }
}

export function randomId(): string {
  return Math.random().toString(36).slice(2, 8)
}
