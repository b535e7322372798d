import { toSimpleSmartAccount } from 'permissionless/accounts'
import { type Address, createPublicClient, type Hex, http, type PublicClient } from 'viem'
import {
  createBundlerClient,
  entryPoint06Address,
  entryPoint07Address,
  entryPoint08Address,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { fundEth } from '../../../src/main/service/chain'
import type { TestService } from '../../helpers/startTestService'

/** One JSON-RPC call to the bundler URL over HTTP, the way any client sends it. */
export async function callBundler(
  service: TestService,
  method: string,
  params: unknown[],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(service.info().bundlerUrl, {
    method: 'POST',
    // As Biconomy's SDK asks: errors keep their HTTP status (jsonrpc/chooseHttpStatus.ts).
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return { status: res.status, body: await res.json() }
}

/** A viem public client on the service's chain. */
export function publicClientOf(service: TestService): PublicClient {
  const chain = service.chain!
  return createPublicClient({ chain: chain.publicClient.chain, transport: http(service.info().rpcUrl!) })
}

/**
 * A permissionless SimpleAccount (EntryPoint v0.6, the canonical factory) with a fresh owner, funded with
 * `fundWei` at its counterfactual address, and a viem bundler client pointed at the service's bundler URL.
 */
export async function createSimpleAccountClient(
  service: TestService,
  fundWei = 10n ** 18n,
  version: '0.6' | '0.7' | '0.8' = '0.6',
) {
  const client = publicClientOf(service)
  const owner = privateKeyToAccount(generatePrivateKey())
  const addresses = service.chain!.addresses
  const entryPoint = {
    '0.6': { address: entryPoint06Address, version: '0.6' as const },
    '0.7': { address: entryPoint07Address, version: '0.7' as const },
    '0.8': { address: entryPoint08Address, version: '0.8' as const },
  }[version]
  // v0.7 and v0.8: the factory permissionless picks by itself (the canonical address the chain must have).
  const account = await toSimpleSmartAccount({
    client,
    owner,
    entryPoint,
    ...(version === '0.6' ? { factoryAddress: addresses.simpleAccountFactory } : {}),
  })
  if (fundWei > 0n) await fundEth(service.chain!, account.address, fundWei)
  const bundlerClient = createBundlerClient({
    client,
    account,
    transport: http(service.info().bundlerUrl),
    pollingInterval: 50,
  })
  return { client, owner, account, bundlerClient }
}

/**
 * viem's Simple7702Account (EIP-7702) for a fresh EOA funded with 1 ETH, on EntryPoint v0.8 or v0.9 (the delegate
 * viem picks for that version), and a viem bundler client pointed at the service's bundler URL.
 */
export async function createSimple7702Client(service: TestService, entryPoint: '0.8' | '0.9' = '0.8') {
  const client = publicClientOf(service)
  const owner = privateKeyToAccount(generatePrivateKey())
  await fundEth(service.chain!, owner.address, 10n ** 18n)
  const account = await toSimple7702SmartAccount({ client, owner, entryPoint })
  const bundlerClient = createBundlerClient({
    client,
    account,
    transport: http(service.info().bundlerUrl),
    pollingInterval: 50,
  })
  return { client, owner, account, bundlerClient }
}

/** A fresh EOA address (receives test transfers). */
export function randomAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/** Waits until `check` returns a value (polling), or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | null | undefined>,
  timeoutMs = 20_000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== null && value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

export function hex(value: bigint): Hex {
  return `0x${value.toString(16)}`
}
