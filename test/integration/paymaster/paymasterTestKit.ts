import { createBundler, createSmartAccountClient } from '@biconomy/account'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  concat,
  createWalletClient,
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  parseAbi,
  type TransactionReceipt,
} from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  ecdsaModuleAbi,
  getGasTankBalance,
  smartAccountAbi,
  smartAccountFactoryAbi,
  testTokenAbi,
} from '../../../src/main/service/chain'
import type { Dapp } from '../../../src/shared/api/dapps'
import type { EntryPointVersion } from '../../../src/shared/entryPointVersions'
import { requestJson, type TestService } from '../../helpers/startTestService'
import { publicClientOf, randomAddress } from '../bundler/bundlerTestKit'

/** Creates a dApp through the dashboard API (its gas tank is created with it) and returns it with its paymaster URL. */
export async function createDapp(
  service: TestService,
  name = `dapp-${Math.random().toString(36).slice(2, 8)}`,
) {
  const created = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
    method: 'POST',
    headers: { authToken: service.authToken() },
    body: { name, type: 'HYBRID', chainId: service.chain!.chainId, version: '1.1.0' },
  })
  if (created.status !== 200) throw new Error(`paymaster not created: ${JSON.stringify(created.body)}`)
  const apiKey: string = created.body.data.apiKey
  const dapp = service.store.data.dapps.find((d) => d.apiKey === apiKey) as Dapp
  return {
    apiKey,
    dapp,
    paymasterId: dapp.paymasterId as Address,
    paymasterUrl: service.info().paymasterUrlTemplate.replace('{apiKey}', apiKey),
  }
}

/** Registers the test token (tUSDC) as a dApp contract with `whitelistedMethods`. */
export async function registerToken(service: TestService, apiKey: string, whitelistedMethods: string[]) {
  const token = service.chain!.addresses.tokens[0]!.address
  const res = await requestJson(`${service.baseUrl}/api/v2/public/sdk/smart-contract`, {
    method: 'POST',
    headers: { authToken: service.authToken(), apiKey },
    body: { name: 'tUSDC', address: token, abi: JSON.stringify(testTokenAbi), whitelistedMethods },
  })
  if (res.status !== 200) throw new Error(`contract not registered: ${JSON.stringify(res.body)}`)
  return token
}

/** One JSON-RPC call to a paymaster URL over HTTP. */
export async function callPaymaster(service: TestService, apiKey: string, method: string, params: unknown[]) {
  return requestJson(service.info().paymasterUrlTemplate.replace('{apiKey}', apiKey), {
    method: 'POST',
    // As Biconomy's SDK asks: errors keep their HTTP status (jsonrpc/chooseHttpStatus.ts).
    headers: { accept: 'application/json' },
    body: { jsonrpc: '2.0', id: 1, method, params },
  })
}

/** A console API call with the auth token. */
export async function callConsole(
  service: TestService,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  return requestJson(`${service.baseUrl}${path}`, { ...init, headers: { authToken: service.authToken() } })
}

/**
 * A Biconomy SDK v4 Smart Account v2 (fresh owner, not deployed, no ETH) with both URLs at the service. Its bundler
 * looks for a receipt every 50 ms: the SDK's default for a chain it does not know is every 5 s (`wait()`) and 0.5 s
 * (`waitForTxHash()`); test/integration/bundler/biconomySdk.test.ts keeps the defaults.
 */
export async function createBiconomyAccount(service: TestService, paymasterUrl: string) {
  const chain = service.chain!
  const owner = privateKeyToAccount(generatePrivateKey())
  const signer = createWalletClient({
    account: owner,
    chain: chain.publicClient.chain,
    transport: http(service.info().rpcUrl!),
  })
  const bundler = await createBundler({
    bundlerUrl: service.info().bundlerUrl,
    chainId: chain.chainId,
    customChain: chain.publicClient.chain,
    userOpReceiptIntervals: { [chain.chainId]: 50 },
    userOpWaitForTxHashIntervals: { [chain.chainId]: 50 },
  })
  const smartAccount = await createSmartAccountClient({
    signer,
    chainId: chain.chainId,
    rpcUrl: service.info().rpcUrl!,
    bundler,
    paymasterUrl,
  })
  return { smartAccount, owner, address: (await smartAccount.getAccountAddress()) as Address }
}

export function gasTankOf(
  service: TestService,
  paymasterId: Address,
  version: EntryPointVersion,
): Promise<bigint> {
  return getGasTankBalance(service.chain!, paymasterId, version)
}

export function tokenBalance(service: TestService, token: Address, owner: Address): Promise<bigint> {
  return service.chain!.publicClient.readContract({
    address: token,
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

const paymasterEvents = parseAbi([
  'event GasBalanceDeducted(address indexed _paymasterId, uint256 indexed _charge)',
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'event TokenPaymasterOperation(address indexed sender, address indexed token, uint256 indexed totalCharge, address oracleAggregator, uint32 priceMarkup, bytes32 userOpHash, uint256 exchangeRate, uint8 priceSource)',
])

/** The paymaster-related events of a bundle transaction, decoded. */
export function readPaymasterEvents(receipt: TransactionReceipt) {
  const out: { name: string; args: Record<string, unknown> }[] = []
  for (const log of receipt.logs) {
    try {
      const decoded = decodeEventLog({
        abi: paymasterEvents,
        data: log.data,
        topics: log.topics as [Hex, ...Hex[]],
      })
      out.push({ name: decoded.eventName, args: decoded.args as Record<string, unknown> })
    } catch {}
  }
  return out
}

/** The Biconomy SDK's dummy ECDSA signature (65 bytes, low s), module-wrapped as the SDK sends it. */
const SDK_DUMMY_SIGNATURE: Hex =
  '0x73c3ac716c487ca34bb858247b5ccf1dc354fbaabdd089af3b2ac8e78ba85a4959a2d76250325bd67c11771c31fccda87c33ceec17cc0de912690521bb95ffcb1b'

/**
 * A partial op the way the SDK's sponsored flow sends it to pm_sponsorUserOperation: a new Smart Account v2
 * (initCode), `execute_ncC(to, value, data)`, hex nonce and fees, no gas limits, the dummy signature.
 */
export async function buildSponsorRequestOp(
  service: TestService,
  account?: { sender: Address; nonce: bigint; initCode?: Hex },
  call: { to: Address; value?: bigint; data?: Hex } = { to: '0x000000000000000000000000000000000000dEaD' },
) {
  const chain = service.chain!
  const owner = privateKeyToAccount(generatePrivateKey())
  const setup = encodeFunctionData({
    abi: ecdsaModuleAbi,
    functionName: 'initForSmartAccount',
    args: [owner.address],
  })
  const initCode = concat([
    chain.addresses.smartAccountFactory,
    encodeFunctionData({
      abi: smartAccountFactoryAbi,
      functionName: 'deployCounterFactualAccount',
      args: [chain.addresses.ecdsaModule, setup, 0n],
    }),
  ])
  const sender = await chain.publicClient.readContract({
    address: chain.addresses.smartAccountFactory,
    abi: smartAccountFactoryAbi,
    functionName: 'getAddressForCounterFactualAccount',
    args: [chain.addresses.ecdsaModule, setup, 0n],
  })
  const block = await chain.publicClient.getBlock()
  return {
    sender: account?.sender ?? sender,
    nonce: numberToHex(account?.nonce ?? 0n),
    initCode: account ? (account.initCode ?? '0x') : initCode,
    callData: encodeFunctionData({
      abi: smartAccountAbi,
      functionName: 'execute_ncC',
      args: [call.to, call.value ?? 0n, call.data ?? '0x'],
    }),
    maxFeePerGas: numberToHex((block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n),
    maxPriorityFeePerGas: numberToHex(1_000_000_000n),
    paymasterAndData: '0x',
    signature: encodeAbiParameters(
      [{ type: 'bytes' }, { type: 'address' }],
      [SDK_DUMMY_SIGNATURE, chain.addresses.ecdsaModule],
    ),
  }
}

/** The SDK's SPONSORED context. */
export function sponsoredContext(extra: Record<string, unknown> = {}) {
  return {
    mode: 'SPONSORED',
    calculateGasLimits: true,
    sponsorshipInfo: { smartAccountInfo: { name: 'BICONOMY', version: '2.0.0' } },
    ...extra,
  }
}

const simpleFactoryV07Abi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
])

/**
 * A partial v0.7 op (ERC-7769 fields) as a client sends it to pm_sponsorUserOperation: a new SimpleAccount v0.7
 * (factory/factoryData), `execute(to, value, data)`, hex nonce and fees, no gas limits, a dummy signature.
 */
export async function buildSponsorRequestOpV07(
  service: TestService,
  call: { to: Address; value?: bigint; data?: Hex } = { to: '0x000000000000000000000000000000000000dEaD' },
) {
  const chain = service.chain!
  const owner = privateKeyToAccount(generatePrivateKey()).address
  const factory = chain.addresses.simpleAccountFactoryV07
  const sender = await chain.publicClient.readContract({
    address: factory,
    abi: simpleFactoryV07Abi,
    functionName: 'getAddress',
    args: [owner, 0n],
  })
  const block = await chain.publicClient.getBlock()
  return {
    sender,
    nonce: '0x0',
    factory,
    factoryData: encodeFunctionData({
      abi: simpleFactoryV07Abi,
      functionName: 'createAccount',
      args: [owner, 0n],
    }),
    callData: encodeFunctionData({
      abi: parseAbi(['function execute(address dest, uint256 value, bytes func)']),
      functionName: 'execute',
      args: [call.to, call.value ?? 0n, call.data ?? '0x'],
    }),
    maxFeePerGas: numberToHex((block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n),
    maxPriorityFeePerGas: numberToHex(1_000_000_000n),
    signature: `0x${'f'.repeat(31)}0${'0'.repeat(32)}7${'a'.repeat(63)}1c`,
  }
}

/** A sponsored operation of a new v0.7 SimpleAccount through viem's bundler and paymaster clients; its receipt. */
export async function sendSponsoredV07(service: TestService, paymasterUrl: string) {
  return sendSponsoredV07Through({
    client: publicClientOf(service),
    bundlerUrl: service.info().bundlerUrl,
    paymasterUrl,
  })
}

/** The same against any Opstation (an installed package, the programmatic API): its chain client and URLs. */
export async function sendSponsoredV07Through({
  client,
  bundlerUrl,
  paymasterUrl,
}: {
  client: PublicClient
  bundlerUrl: string
  paymasterUrl: string
}) {
  const account = await toSimpleSmartAccount({
    client,
    owner: privateKeyToAccount(generatePrivateKey()),
    entryPoint: { address: entryPoint07Address, version: '0.7' },
  })
  const bundler = createBundlerClient({
    client,
    account,
    paymaster: createPaymasterClient({ transport: http(paymasterUrl) }),
    transport: http(bundlerUrl),
    pollingInterval: 50,
  })
  const hash = await bundler.sendUserOperation({ calls: [{ to: randomAddress(), value: 0n }] })
  return bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })
}
