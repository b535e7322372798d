/**
 * Latency of `pm_sponsorUserOperation` (SPONSORED, calculateGasLimits true, no webhook), the SDK's sponsored
 * flow (a): a new Smart Account v2 per request (initCode + execute_ncC), hex fees, no gas limits, the SDK's
 * dummy signature. Nothing is sent, so the chain does not change between requests. Used by runBench and by
 * `npx tsx bench/runPaymasterBench.ts`.
 */
import {
  type Address,
  concat,
  createPublicClient,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  numberToHex,
  parseAbi,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { canonicalAddresses } from '../src/main/service/chain/constants'

export type BenchSponsorParameters = {
  /** http://127.0.0.1:<port> of a running service. */
  baseUrl: string
  authToken: string
  /** The chain's JSON-RPC URL (to read counterfactual addresses and the base fee). */
  rpcUrl: string
  chainId: number
  operations?: number
  /** Requests in flight at once (1 = one after another). */
  concurrency?: number
  /**
   * '0.6' (default): the Biconomy SDK's new Smart Account v2; '0.7': a new SimpleAccount v0.7 (factory/factoryData,
   * execute), the same request shape viem-era clients send, answered with the ERC-7769 paymaster fields.
   */
  entryPointVersion?: '0.6' | '0.7'
}

export type BenchSponsorResult = {
  p50: number
  p95: number
  max: number
  opsPerSecond: number
  samples: number[]
}

const SDK_DUMMY_SIGNATURE: Hex =
  '0x73c3ac716c487ca34bb858247b5ccf1dc354fbaabdd089af3b2ac8e78ba85a4959a2d76250325bd67c11771c31fccda87c33ceec17cc0de912690521bb95ffcb1b'
const factoryAbi = parseAbi([
  'function deployCounterFactualAccount(address moduleSetupContract, bytes moduleSetupData, uint256 index) returns (address)',
  'function getAddressForCounterFactualAccount(address moduleSetupContract, bytes moduleSetupData, uint256 index) view returns (address)',
])
const moduleAbi = parseAbi(['function initForSmartAccount(address eoaOwner) returns (address)'])
const accountAbi = parseAbi(['function execute_ncC(address dest, uint256 value, bytes func)'])
const simpleFactoryV07Abi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
])
const simpleAccountAbi = parseAbi(['function execute(address dest, uint256 value, bytes func)'])
/** SimpleAccount's dummy signature (validation returns SIG_VALIDATION_FAILED, as viem's estimate sends it). */
const SIMPLE_DUMMY_SIGNATURE: Hex = `0x${'f'.repeat(31)}0${'0'.repeat(32)}7${'a'.repeat(63)}1c`

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

/** Creates a dApp (with its gas tank) through the dashboard API; its paymaster URL. */
export async function createBenchDapp(params: {
  baseUrl: string
  authToken: string
  chainId: number
}): Promise<string> {
  const created = await fetch(`${params.baseUrl}/api/v2/public/sdk/paymaster`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authToken: params.authToken },
    body: JSON.stringify({
      name: `bench-${Date.now()}`,
      type: 'HYBRID',
      chainId: params.chainId,
      version: '1.1.0',
    }),
  })
  const apiKey = ((await created.json()) as { data: { apiKey: string } }).data.apiKey
  return `${params.baseUrl}/api/v1/${params.chainId}/${apiKey}`
}

/** Creates a dApp (with its gas tank) and times `operations` sponsor requests against it. */
export async function benchSponsorUserOperation(params: BenchSponsorParameters): Promise<BenchSponsorResult> {
  const operations = params.operations ?? 200
  const concurrency = params.concurrency ?? 1
  const paymasterUrl = await createBenchDapp(params)
  const client = createPublicClient({ transport: http(params.rpcUrl) })
  const block = await client.getBlock()
  const fees = {
    maxFeePerGas: numberToHex((block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n),
    maxPriorityFeePerGas: numberToHex(1_000_000_000n),
  }
  const signature = encodeAbiParameters(
    [{ type: 'bytes' }, { type: 'address' }],
    [SDK_DUMMY_SIGNATURE, canonicalAddresses.ecdsaModule],
  )
  const v07 = params.entryPointVersion === '0.7'
  const ops = await Promise.all(
    Array.from({ length: Math.min(operations, 50) }, async () => {
      if (v07) {
        const owner = privateKeyToAccount(generatePrivateKey()).address
        const sender: Address = await client.readContract({
          address: canonicalAddresses.simpleAccountFactoryV07,
          abi: simpleFactoryV07Abi,
          functionName: 'getAddress',
          args: [owner, 0n],
        })
        return {
          sender,
          nonce: '0x0',
          factory: canonicalAddresses.simpleAccountFactoryV07,
          factoryData: encodeFunctionData({
            abi: simpleFactoryV07Abi,
            functionName: 'createAccount',
            args: [owner, 0n],
          }),
          callData: encodeFunctionData({
            abi: simpleAccountAbi,
            functionName: 'execute',
            args: [owner, 0n, '0x'],
          }),
          ...fees,
          signature: SIMPLE_DUMMY_SIGNATURE,
        }
      }
      const owner = privateKeyToAccount(generatePrivateKey()).address
      const setup = encodeFunctionData({ abi: moduleAbi, functionName: 'initForSmartAccount', args: [owner] })
      const args = [canonicalAddresses.ecdsaModule, setup, 0n] as const
      const sender: Address = await client.readContract({
        address: canonicalAddresses.smartAccountFactory,
        abi: factoryAbi,
        functionName: 'getAddressForCounterFactualAccount',
        args,
      })
      return {
        sender,
        nonce: '0x0',
        initCode: concat([
          canonicalAddresses.smartAccountFactory,
          encodeFunctionData({ abi: factoryAbi, functionName: 'deployCounterFactualAccount', args }),
        ]),
        callData: encodeFunctionData({
          abi: accountAbi,
          functionName: 'execute_ncC',
          args: [owner, 0n, '0x'],
        }),
        ...fees,
        paymasterAndData: '0x',
        signature,
      }
    }),
  )
  const context = {
    mode: 'SPONSORED',
    calculateGasLimits: true,
    sponsorshipInfo: { smartAccountInfo: { name: 'BICONOMY', version: '2.0.0' } },
  }
  const call = async (i: number) => {
    const started = performance.now()
    const res = await fetch(paymasterUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'pm_sponsorUserOperation',
        params: [ops[i % ops.length], context],
      }),
    })
    const body = (await res.json()) as {
      result?: { paymasterAndData?: string; paymaster?: string }
      error?: { message: string }
    }
    const elapsed = performance.now() - started
    if (!body.result || (v07 ? !body.result.paymaster : body.result.paymasterAndData === '0x')) {
      throw new Error(`pm_sponsorUserOperation did not sponsor: ${JSON.stringify(body.error ?? body.result)}`)
    }
    return elapsed
  }
  for (let i = 0; i < 10; i++) await call(i) // warm-up (JIT, connections)
  const samples: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < operations) samples.push(await call(next++))
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? Number.NaN,
    opsPerSecond: operations / seconds,
    samples,
  }
}
