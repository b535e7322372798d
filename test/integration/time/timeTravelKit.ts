import { toSimpleSmartAccount } from 'permissionless/accounts'
import { createPublicClient, createTestClient, type Hex, http, type PublicClient } from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  entryPoint07Address,
  type SmartAccount,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { requestJson, type TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'

/** What the tests need of a running Opstation: its ready line's URLs (the CLI's) or its info (a test service's). */
export type Urls = { rpcUrl: string; bundlerUrl: string; dashboardUrl: string; authToken: string }

/** A test service's URLs and auth token, as the tests reach it. */
export function urlsOf(service: TestService): Urls {
  const info = service.info()
  return {
    rpcUrl: info.rpcUrl!,
    bundlerUrl: info.bundlerUrl,
    dashboardUrl: info.dashboardUrl,
    authToken: service.authToken(),
  }
}

export function clientsOf(urls: Urls) {
  const chain = { ...foundry, rpcUrls: { default: { http: [urls.rpcUrl] } } }
  const publicClient = createPublicClient({ chain, transport: http(urls.rpcUrl), pollingInterval: 50 })
  // viem's test client on Opstation's chain URL: snapshot(), revert(), increaseTime(), mine(), reset().
  const testClient = createTestClient({ chain, mode: 'anvil', transport: http(urls.rpcUrl) })
  return { publicClient: publicClient as PublicClient, testClient }
}

/** One JSON-RPC call to a URL; answers the whole envelope. */
export async function rpc(url: string, method: string, params: unknown[] = []) {
  const { body } = await requestJson(url, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method, params } })
  return body as { result?: any; error?: { code: number; message: string } }
}

/** A dApp created through the dashboard API (its gas tank with it), with its paymaster URL. */
export async function createDapp(urls: Urls, name = `dapp-${Math.random().toString(36).slice(2, 8)}`) {
  const created = await requestJson(`${urls.dashboardUrl}/api/v2/public/sdk/paymaster`, {
    method: 'POST',
    headers: { authToken: urls.authToken },
    body: { name, type: 'HYBRID', chainId: 31337, version: '1.1.0' },
  })
  if (created.status !== 200) throw new Error(`dApp not created: ${JSON.stringify(created.body)}`)
  const apiKey = created.body.data.apiKey as string
  return { apiKey, paymasterUrl: paymasterUrlOf(urls, apiKey) }
}

/** A dApp's paymaster URL at this service (beside its bundler URL). */
export function paymasterUrlOf(urls: Urls, apiKey: string): string {
  return urls.bundlerUrl.replace(/\/api\/v2\/(\d+)\/.*/, `/api/v1/$1/${apiKey}`)
}

/** The dApps the dashboard lists. */
export async function listDapps(urls: Urls): Promise<{ apiKey: string; name: string }[]> {
  const { body } = await requestJson(`${urls.dashboardUrl}/api/v2/public/sdk/paymaster`, {
    headers: { authToken: urls.authToken },
  })
  return body.data
}

/** Sets a dApp's spending limits (console API). */
export async function setLimits(urls: Urls, apiKey: string, limits: unknown[]) {
  const res = await requestJson(`${urls.dashboardUrl}/console/api/dapps/${apiKey}/policies`, {
    method: 'PATCH',
    headers: { authToken: urls.authToken },
    body: { limits },
  })
  if (res.status !== 200) throw new Error(`limits not set: ${JSON.stringify(res.body)}`)
}

/** A fresh SimpleAccount (EntryPoint v0.7, unfunded: the dApp sponsors it) with viem's bundler and paymaster clients. */
export async function createSponsoredAccount(urls: Urls, paymasterUrl: string, owner = generatePrivateKey()) {
  const { publicClient } = clientsOf(urls)
  const account: SmartAccount = await toSimpleSmartAccount({
    client: publicClient,
    owner: privateKeyToAccount(owner),
    entryPoint: { address: entryPoint07Address, version: '0.7' },
  })
  const bundlerClient = createBundlerClient({
    client: publicClient,
    account,
    paymaster: createPaymasterClient({ transport: http(paymasterUrl) }),
    transport: http(urls.bundlerUrl),
    pollingInterval: 50,
  })
  const send = () => bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 0n }] })
  return { account, bundlerClient, send, owner }
}

/** Sends a sponsored operation and waits for its receipt; answers its hash and whether it succeeded. */
export async function sendAndMine(client: Awaited<ReturnType<typeof createSponsoredAccount>>) {
  const hash = await client.send()
  const receipt = await client.bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
  return { hash, success: receipt.success }
}

/** eth_getUserOperationReceipt as the bundler answers it (null: no receipt). */
export async function receiptOf(urls: Urls, hash: Hex) {
  return (await rpc(urls.bundlerUrl, 'eth_getUserOperationReceipt', [hash])).result
}

/** The operations pending in the bundler's v0.7 mempool. */
export async function mempoolOf(urls: Urls): Promise<unknown[]> {
  return (await rpc(urls.bundlerUrl, 'debug_bundler_dumpMempool', [entryPoint07Address])).result
}
