import type { FastifyInstance } from 'fastify'
import { type Address, getAddress, type Hex, isAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import { EntryPointVersionSchema } from '../../../shared/api/fields'
import {
  type BuildUserOperationResponse,
  type FaucetResponse,
  SANDBOX_ACCOUNT_LABELS,
  SANDBOX_ACCOUNT_TYPES,
  type SandboxAccount,
  type SignUserOperationResponse,
  type UserOperationJson,
} from '../../../shared/sandbox'
import { testTokenAbi } from '../chain/abis/testToken'
import { getNonce } from '../chain/entryPoint/getNonce'
import { fundEth } from '../chain/faucet/fundEth'
import { mintToken } from '../chain/faucet/mintToken'
import type { Chain } from '../chain/types'
import { AUTH_TOKEN_REQUIRED, authenticate } from '../dashboard/auth'
import { type Covers, type RouteDoc, withDoc } from '../docs/routeDoc'
import { hasEntryPoint } from '../entryPoint'
import { ChainError, InvalidInputError, NotFoundError } from '../errors'
import { type Call, SANDBOX_ACCOUNT_KINDS } from '../sandbox/accountKinds'
import { openSandboxAccountStore, type StoredSandboxAccount } from '../sandbox/sandboxAccountStore'
import { jsonObject, parseInput, requiredAddress } from '../schemas/inputFields'
import { QuantitySchema, quantitySchema } from '../schemas/quantitySchema'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import { CHAIN_NOT_RUN, ChainQuery, type ConsoleChains, readConsoleChain } from './consoleChains'

export type SandboxRoutesOptions = {
  store: Store
  dataDir: string
  /** The chains run: each route acts on the one its `?chainId=` names (the first without it). */
  chains: ConsoleChains
}

const CreateBody = jsonObject({
  type: z.enum(SANDBOX_ACCOUNT_TYPES, { error: `type must be one of ${SANDBOX_ACCOUNT_TYPES.join(', ')}` }),
  label: z
    .string({ error: 'label must be a string' })
    .trim()
    .max(60, { error: 'label must be at most 60 characters' })
    .optional(),
})

const CallSchema = z.object(
  {
    to: requiredAddress('to'),
    value: quantitySchema({ field: 'value' }).optional(),
    data: z
      .string({ error: 'data must be a 0x-prefixed hex string' })
      .regex(/^0x[0-9a-fA-F]*$/, { error: 'data must be a 0x-prefixed hex string' })
      .optional(),
  },
  { error: 'each call must be an object with to, value and data' },
)
const BuildBody = jsonObject({
  calls: z.array(CallSchema, { error: 'calls must be an array' }).max(20, { error: 'at most 20 calls' }),
})

/** The quantity fields of a UserOperation of any EntryPoint version. */
const OPERATION_QUANTITIES = [
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const

const SignBody = jsonObject({
  // Every account kind reads the operation its own way; its quantities pass the one bounded schema first.
  userOperation: z
    .record(z.string(), z.unknown(), { error: 'userOperation must be an object' })
    .superRefine((op, ctx) => {
      for (const field of OPERATION_QUANTITIES) {
        if (op[field] === undefined || op[field] === null) continue
        const read = QuantitySchema.safeParse(op[field])
        if (!read.success)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `userOperation.${field}: ${read.error.issues[0]?.message ?? 'invalid'}`,
          })
      }
    }),
})

const FaucetBody = jsonObject({
  address: requiredAddress('address'),
  asset: z.string({ error: 'asset must be "ETH" or a test token address' }).trim(),
  amount: z
    .string({ error: 'amount must be a decimal string such as "1" or "0.5"' })
    .trim()
    .max(60, { error: 'amount must be at most 60 characters' })
    .regex(/^\d+(\.\d+)?$/, { error: 'amount must be a positive decimal number such as "1" or "0.5"' }),
})

const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/)

const SandboxAccountSchema = z.object({
  address: addressSchema.meta({ description: 'The smart account (counterfactual until deployed)' }),
  type: z.enum(SANDBOX_ACCOUNT_TYPES),
  label: z.string(),
  owner: addressSchema.meta({ description: 'The owner EOA, whose key stays in the data folder' }),
  entryPointVersion: EntryPointVersionSchema,
  index: z.number().int(),
  createdAt: z.string(),
  deployed: z.boolean().nullable(),
  balanceWei: z.string().nullable(),
  tokens: z.array(
    z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int(), balance: z.string() }),
  ),
})
type _CheckedSandboxAccount = Covers<typeof SandboxAccountSchema, SandboxAccount>

/** A UserOperation in its version's wire form, every number a 0x-hex quantity. */
const UserOperationJsonSchema = z.looseObject({
  sender: z.string(),
  nonce: z.string(),
  callData: z.string(),
  callGasLimit: z.string(),
  verificationGasLimit: z.string(),
  preVerificationGas: z.string(),
  maxFeePerGas: z.string(),
  maxPriorityFeePerGas: z.string(),
  signature: z.string(),
})
type _CheckedUserOperationJson = Covers<typeof UserOperationJsonSchema, UserOperationJson>

const BuildUserOperationResponseSchema = z.object({
  userOperation: UserOperationJsonSchema.meta({
    description: 'With a dummy signature, no paymaster, and the deployment while the account is undeployed',
  }),
  entryPoint: addressSchema,
  entryPointVersion: EntryPointVersionSchema,
  deployed: z.boolean(),
})
type _CheckedBuildUserOperationResponse = Covers<
  typeof BuildUserOperationResponseSchema,
  BuildUserOperationResponse
>

const SignUserOperationResponseSchema = z.object({
  userOperation: UserOperationJsonSchema,
  userOpHash: z.string(),
  signature: z.string(),
})
type _CheckedSignUserOperationResponse = Covers<
  typeof SignUserOperationResponseSchema,
  SignUserOperationResponse
>

const FaucetResponseSchema = z.object({
  address: addressSchema,
  asset: z.string().meta({ description: 'ETH or the token address' }),
  symbol: z.string(),
  balance: z.string().meta({ description: 'The new balance in base units, decimal' }),
  decimals: z.number().int(),
})
type _CheckedFaucetResponse = Covers<typeof FaucetResponseSchema, FaucetResponse>

const AccountParams = z.object({ address: z.string().meta({ description: 'The sandbox account' }) })

/** What the routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: sandbox',
  query: ChainQuery,
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
} as const satisfies Partial<RouteDoc>
const NO_CHAIN = { 400: CHAIN_NOT_RUN, 503: 'No chain is running' }

const SHORT_LABELS: Record<(typeof SANDBOX_ACCOUNT_TYPES)[number], string> = {
  SMART_ACCOUNT_V2: 'SA v2',
  SIMPLE_ACCOUNT: 'Simple',
  SIMPLE_ACCOUNT_V07: 'Simple v0.7',
  SIMPLE_7702_V08: '7702',
  SIMPLE_7702_V09: '7702 v0.9',
  SAFE_V07: 'Safe',
  KERNEL_V3_1: 'Kernel',
  LIGHT_ACCOUNT_V2: 'Light',
  NEXUS: 'Nexus',
  SAFE_V06: 'Safe v0.6',
  KERNEL_V2_4: 'Kernel v2',
  LIGHT_ACCOUNT_V1_1: 'Light v1.1',
  TRUST: 'Trust',
  THIRDWEB_V06: 'thirdweb v0.6',
  COINBASE_V1: 'Coinbase',
  COINBASE_V1_1: 'Coinbase v1.1',
  ETHERSPOT: 'Etherspot',
  THIRDWEB_V07: 'thirdweb v0.7',
  MODULAR_ACCOUNT_V1: 'MA v1',
  MODULAR_ACCOUNT_V2: 'MA v2',
  SOLADY_V07: 'Solady',
  MODULAR_ACCOUNT_V1_MULTISIG: 'MA v1 multisig',
}

const MAX_FAUCET_ETH = 1000n * 10n ** 18n
/** Most whole test tokens one faucet call mints (a token's supply stays far below uint256). */
const MAX_FAUCET_TOKENS = 1_000_000_000n

function parseUnits(text: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.')
  if (fraction.length > decimals) throw new InvalidInputError(`amount has more than ${decimals} decimals`)
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
}

/**
 * `/console/api/sandbox/*`: local smart accounts whose owner keys the service holds, UserOperation building
 * and signing for them, and a faucet. The renderer does every bundler and paymaster call itself, as a dApp.
 */
export async function registerSandboxRoutes(
  app: FastifyInstance,
  options: SandboxRoutesOptions,
): Promise<void> {
  const { store, chains } = options
  const accounts = await openSandboxAccountStore(options.dataDir)
  const auth = (request: Parameters<typeof authenticate>[1]) =>
    authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })
  const requireChain = (request: { query: unknown }): Chain => {
    const chain = readConsoleChain(chains, request.query)?.chain
    if (!chain) throw new ChainError('No chain is running: the sandbox needs one (start without --no-chain)')
    return chain
  }
  // A sandbox account is the service's on every chain it runs: its owner's key and its factory give it the same
  // address on each, so an account made on one chain sends the same operation on another.
  const listAccounts = (): StoredSandboxAccount[] => {
    const seen = new Set<string>()
    return chains.chainIds
      .flatMap((chainId) => accounts.list(chainId))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .filter((a) => !seen.has(a.address.toLowerCase()) && seen.add(a.address.toLowerCase()))
  }
  const requireAccount = (chain: Chain, address: string): StoredSandboxAccount => {
    const account = !isAddress(address, { strict: false })
      ? undefined
      : (accounts.find(chain.chainId, address) ??
        listAccounts().find((a) => a.address.toLowerCase() === address.toLowerCase()))
    if (!account) throw new NotFoundError(`No sandbox account ${address} on chain ${chain.chainId}`)
    return account
  }

  async function describeAccount(chain: Chain, account: StoredSandboxAccount): Promise<SandboxAccount> {
    const kind = SANDBOX_ACCOUNT_KINDS[account.type]
    const [deployed, balance, tokens] = await Promise.all([
      kind.isDeployed(chain, account),
      chain.publicClient.getBalance({ address: account.address }),
      Promise.all(
        chain.addresses.tokens.map(async (t) => ({
          symbol: t.symbol,
          address: t.address,
          decimals: t.decimals,
          balance: (
            await chain.publicClient.readContract({
              address: t.address,
              abi: testTokenAbi,
              functionName: 'balanceOf',
              args: [account.address],
            })
          ).toString(),
        })),
      ),
    ])
    return {
      address: account.address,
      type: account.type,
      label: account.label,
      owner: account.owner,
      entryPointVersion: kind.entryPoint.version,
      index: account.index,
      createdAt: account.createdAt,
      deployed,
      balanceWei: balance.toString(),
      tokens,
    }
  }

  app.get(
    '/console/api/sandbox/accounts',
    withDoc({
      ...DOC,
      summary: 'The sandbox accounts on this chain, with their balances',
      data: z.array(SandboxAccountSchema),
      errors: NO_CHAIN,
    }),
    async (request, reply) => {
      auth(request)
      const chain = requireChain(request)
      const list = await Promise.all(listAccounts().map((a) => describeAccount(chain, a)))
      return sendOk(reply, 'Sandbox accounts fetched', list)
    },
  )

  app.post(
    '/console/api/sandbox/accounts',
    withDoc({
      ...DOC,
      summary: 'Create a sandbox account of a type (its owner key is generated and kept by the service)',
      body: CreateBody,
      data: SandboxAccountSchema,
      errors: { ...NO_CHAIN, 503: "No chain is running, or it lacks the type's EntryPoint or factory" },
    }),
    async (request, reply) => {
      auth(request)
      const body = parseInput(CreateBody, request.body)
      const chain = requireChain(request)
      const ownerPrivateKey = generatePrivateKey()
      const owner = privateKeyToAccount(ownerPrivateKey).address
      const kind = SANDBOX_ACCOUNT_KINDS[body.type]
      if (!hasEntryPoint(chain, kind.entryPoint))
        throw new ChainError(`EntryPoint v${kind.entryPoint.version} is not deployed on this chain`)
      const address = await kind.getAddress(chain, owner, 0).catch((err: unknown) => {
        throw new ChainError(
          `Could not compute the ${SANDBOX_ACCOUNT_LABELS[body.type]} address: the factory is missing on this chain`,
          {
            cause: err,
          },
        )
      })
      const count = listAccounts().length
      const stored: StoredSandboxAccount = {
        address,
        type: body.type,
        label: body.label || `${SHORT_LABELS[body.type]} #${count + 1}`,
        owner,
        ownerPrivateKey,
        index: 0,
        chainId: chain.chainId,
        createdAt: new Date().toISOString(),
      }
      await accounts.add(stored)
      return sendOk(reply, 'Sandbox account created', await describeAccount(chain, stored))
    },
  )

  app.post<{ Params: { address: string } }>(
    '/console/api/sandbox/accounts/:address/user-operation',
    withDoc({
      ...DOC,
      summary: 'Build an unsigned UserOperation of the account making these calls',
      params: AccountParams,
      body: BuildBody,
      data: BuildUserOperationResponseSchema,
      errors: { 404: 'No such sandbox account on this chain', ...NO_CHAIN },
    }),
    async (request, reply) => {
      auth(request)
      const body = parseInput(BuildBody, request.body)
      const chain = requireChain(request)
      const account = requireAccount(chain, request.params.address)
      const calls: Call[] = body.calls.map((c) => ({
        to: getAddress(c.to),
        value: c.value ?? 0n,
        data: (c.data ?? '0x') as Hex,
      }))
      const kind = SANDBOX_ACCOUNT_KINDS[account.type]
      const callData = kind.encodeCalls(calls)
      const [deployed, nonce, fees] = await Promise.all([
        kind.isDeployed(chain, account),
        getNonce(chain, account.address, 0n, kind.entryPoint.address),
        chain.publicClient.estimateFeesPerGas(),
      ])
      const userOperation = await kind.buildUserOperation(chain, account, {
        callData,
        nonce,
        fees: { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
        deployed,
      })
      const result: BuildUserOperationResponse = {
        entryPoint: kind.entryPoint.address,
        entryPointVersion: kind.entryPoint.version,
        deployed,
        userOperation: userOperation as UserOperationJson,
      }
      return sendOk(reply, 'UserOperation built', result)
    },
  )

  app.post<{ Params: { address: string } }>(
    '/console/api/sandbox/accounts/:address/sign',
    withDoc({
      ...DOC,
      summary: "Sign a UserOperation with the account's key (as its SDK signs)",
      params: AccountParams,
      body: SignBody,
      data: SignUserOperationResponseSchema,
      errors: { 404: 'No such sandbox account on this chain', ...NO_CHAIN },
    }),
    async (request, reply) => {
      auth(request)
      const { userOperation: op } = parseInput(SignBody, request.body)
      const chain = requireChain(request)
      const account = requireAccount(chain, request.params.address)
      if (typeof op.sender !== 'string' || !isAddress(op.sender, { strict: false }))
        throw new InvalidInputError('userOperation.sender must be an address')
      if (getAddress(op.sender) !== getAddress(account.address)) {
        throw new InvalidInputError(`userOperation.sender ${op.sender} is not the account ${account.address}`)
      }
      const signed = await SANDBOX_ACCOUNT_KINDS[account.type].signUserOperation(chain, account, op)
      const result: SignUserOperationResponse = {
        userOpHash: signed.userOpHash,
        signature: signed.signature,
        userOperation: signed.userOperation as UserOperationJson,
      }
      return sendOk(reply, 'UserOperation signed', result)
    },
  )

  app.post(
    '/console/api/sandbox/faucet',
    withDoc({
      ...DOC,
      summary: 'Send test ETH or mint a test token to an address',
      body: FaucetBody,
      data: FaucetResponseSchema,
      errors: NO_CHAIN,
    }),
    async (request, reply) => {
      auth(request)
      const body = parseInput(FaucetBody, request.body)
      const chain = requireChain(request)
      const address = getAddress(body.address) as Address
      if (body.asset.toUpperCase() === 'ETH') {
        const wei = parseUnits(body.amount, 18)
        if (wei === 0n || wei > MAX_FAUCET_ETH)
          throw new InvalidInputError('amount must be more than 0 and at most 1000 ETH')
        const { balance } = await fundEth(chain, address, wei)
        const result: FaucetResponse = {
          address,
          asset: 'ETH',
          symbol: 'ETH',
          decimals: 18,
          balance: balance.toString(),
        }
        return sendOk(reply, 'ETH sent', result)
      }
      const token = chain.addresses.tokens.find(
        (t) => t.address.toLowerCase() === body.asset.toLowerCase() || t.symbol === body.asset,
      )
      if (!token) {
        throw new InvalidInputError(
          `asset must be "ETH" or a test token (${chain.addresses.tokens.map((t) => `${t.symbol} ${t.address}`).join(', ')})`,
        )
      }
      const amount = parseUnits(body.amount, token.decimals)
      if (amount === 0n || amount > MAX_FAUCET_TOKENS * 10n ** BigInt(token.decimals))
        throw new InvalidInputError(
          `amount must be more than 0 and at most ${MAX_FAUCET_TOKENS} ${token.symbol}`,
        )
      await mintToken(chain, token.address, address, amount)
      const balance = await chain.publicClient.readContract({
        address: token.address,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [address],
      })
      const result: FaucetResponse = {
        address,
        asset: token.address,
        symbol: token.symbol,
        decimals: token.decimals,
        balance: balance.toString(),
      }
      return sendOk(reply, `${token.symbol} minted`, result)
    },
  )
}
