import type { FastifyInstance } from 'fastify'
import { type Address, getAddress, type Hex, isAddress, numberToHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import {
  type BuildUserOperationResponse,
  type FaucetResponse,
  SANDBOX_ACCOUNT_LABELS,
  SANDBOX_ACCOUNT_TYPES,
  type SandboxAccount,
  type SignUserOperationResponse,
} from '../../../shared/sandbox'
import { testTokenAbi } from '../chain/abis/testToken'
import { getNonce } from '../chain/entryPoint/getNonce'
import { computeUserOpHash } from '../chain/entryPoint/getUserOpHash'
import { fundEth } from '../chain/faucet/fundEth'
import { mintToken } from '../chain/faucet/mintToken'
import type { Chain } from '../chain/types'
import { AUTH_TOKEN_REQUIRED, authenticate } from '../dashboard/auth'
import { jsonObject, parseInput, requiredAddress } from '../dashboard/fields'
import { ChainError, InvalidInputError, NotFoundError } from '../errors'
import { openSandboxAccountStore, type StoredSandboxAccount } from '../sandbox/sandboxAccountStore'
import {
  type Call,
  encodeCalls,
  getAccountAddress,
  getDummySignature,
  getInitCode,
  signUserOpHash,
} from '../sandbox/smartAccounts'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'

export type SandboxRoutesOptions = {
  store: Store
  dataDir: string
  /** The running chain, or undefined (no chain / not started). */
  getChain: () => Chain | undefined
}

const hex = (field: string) =>
  z
    .string({ error: `${field} must be a 0x-prefixed hex string` })
    .regex(/^0x[0-9a-fA-F]*$/, { error: `${field} must be a 0x-prefixed hex string` })
const quantity = (field: string) =>
  z
    .union([z.string(), z.number()], { error: `${field} must be a hex or decimal quantity` })
    .transform((v, ctx) => {
      const text = String(v).trim()
      if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a hex or decimal quantity` })
        return z.NEVER
      }
      return numberToHex(BigInt(text))
    })

const CreateBody = jsonObject({
  type: z.enum(SANDBOX_ACCOUNT_TYPES, { error: `type must be ${SANDBOX_ACCOUNT_TYPES.join(' or ')}` }),
  label: z
    .string({ error: 'label must be a string' })
    .trim()
    .max(60, { error: 'label must be at most 60 characters' })
    .optional(),
})

const CallSchema = z.object(
  {
    to: requiredAddress('to'),
    value: z
      .string({ error: 'value must be a decimal string of wei' })
      .regex(/^\d+$/, { error: 'value must be a decimal string of wei' })
      .optional(),
    data: hex('data').optional(),
  },
  { error: 'each call must be an object with to, value and data' },
)
const BuildBody = jsonObject({
  calls: z.array(CallSchema, { error: 'calls must be an array' }).max(20, { error: 'at most 20 calls' }),
})

const WireOpSchema = z.object(
  {
    sender: requiredAddress('sender'),
    nonce: quantity('nonce'),
    initCode: hex('initCode'),
    callData: hex('callData'),
    callGasLimit: quantity('callGasLimit'),
    verificationGasLimit: quantity('verificationGasLimit'),
    preVerificationGas: quantity('preVerificationGas'),
    maxFeePerGas: quantity('maxFeePerGas'),
    maxPriorityFeePerGas: quantity('maxPriorityFeePerGas'),
    paymasterAndData: hex('paymasterAndData'),
    signature: hex('signature').optional(),
  },
  { error: 'userOperation must be an object with every v0.6 field' },
)
const SignBody = jsonObject({ userOperation: WireOpSchema })

const FaucetBody = jsonObject({
  address: requiredAddress('address'),
  asset: z.string({ error: 'asset must be "ETH" or a test token address' }).trim(),
  amount: z
    .string({ error: 'amount must be a decimal string such as "1" or "0.5"' })
    .trim()
    .regex(/^\d+(\.\d+)?$/, { error: 'amount must be a positive decimal number such as "1" or "0.5"' }),
})

const MAX_FAUCET_ETH = 1000n * 10n ** 18n

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
  const { store } = options
  const accounts = await openSandboxAccountStore(options.dataDir)
  const auth = (request: Parameters<typeof authenticate>[1]) =>
    authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })
  const requireChain = (): Chain => {
    const chain = options.getChain()
    if (!chain) throw new ChainError('No chain is running: the sandbox needs one (start without --no-chain)')
    return chain
  }
  const requireAccount = (chain: Chain, address: string): StoredSandboxAccount => {
    const account = isAddress(address, { strict: false }) ? accounts.find(chain.chainId, address) : undefined
    if (!account) throw new NotFoundError(`No sandbox account ${address} on chain ${chain.chainId}`)
    return account
  }

  async function describeAccount(chain: Chain, account: StoredSandboxAccount): Promise<SandboxAccount> {
    const [code, balance, tokens] = await Promise.all([
      chain.publicClient.getCode({ address: account.address }),
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
      index: account.index,
      createdAt: account.createdAt,
      deployed: code !== undefined && code !== '0x',
      balanceWei: balance.toString(),
      tokens,
    }
  }

  app.get('/console/api/sandbox/accounts', async (request, reply) => {
    auth(request)
    const chain = requireChain()
    const list = await Promise.all(accounts.list(chain.chainId).map((a) => describeAccount(chain, a)))
    return sendOk(reply, 'Sandbox accounts fetched', list)
  })

  app.post('/console/api/sandbox/accounts', async (request, reply) => {
    auth(request)
    const body = parseInput(CreateBody, request.body)
    const chain = requireChain()
    const ownerPrivateKey = generatePrivateKey()
    const owner = privateKeyToAccount(ownerPrivateKey).address
    const address = await getAccountAddress(chain, body.type, owner, 0).catch((err: unknown) => {
      throw new ChainError(
        `Could not compute the ${SANDBOX_ACCOUNT_LABELS[body.type]} address: the factory is missing on this chain`,
        {
          cause: err,
        },
      )
    })
    const count = accounts.list(chain.chainId).length
    const stored: StoredSandboxAccount = {
      address,
      type: body.type,
      label: body.label || `${body.type === 'SMART_ACCOUNT_V2' ? 'SA v2' : 'Simple'} #${count + 1}`,
      owner,
      ownerPrivateKey,
      index: 0,
      chainId: chain.chainId,
      createdAt: new Date().toISOString(),
    }
    await accounts.add(stored)
    return sendOk(reply, 'Sandbox account created', await describeAccount(chain, stored))
  })

  app.post<{ Params: { address: string } }>(
    '/console/api/sandbox/accounts/:address/user-operation',
    async (request, reply) => {
      auth(request)
      const body = parseInput(BuildBody, request.body)
      const chain = requireChain()
      const account = requireAccount(chain, request.params.address)
      const calls: Call[] = body.calls.map((c) => ({
        to: getAddress(c.to),
        value: BigInt(c.value ?? '0'),
        data: (c.data ?? '0x') as Hex,
      }))
      let callData: Hex
      try {
        callData = encodeCalls(account.type, calls)
      } catch (err) {
        throw new InvalidInputError((err as Error).message)
      }
      const [code, nonce, fees] = await Promise.all([
        chain.publicClient.getCode({ address: account.address }),
        getNonce(chain, account.address),
        chain.publicClient.estimateFeesPerGas(),
      ])
      const deployed = code !== undefined && code !== '0x'
      const result: BuildUserOperationResponse = {
        entryPoint: chain.addresses.entryPoint,
        deployed,
        userOperation: {
          sender: account.address,
          nonce: numberToHex(nonce),
          initCode: deployed ? '0x' : getInitCode(chain, account.type, account.owner, account.index),
          callData,
          callGasLimit: '0x0',
          verificationGasLimit: '0x0',
          preVerificationGas: '0x0',
          maxFeePerGas: numberToHex(fees.maxFeePerGas),
          maxPriorityFeePerGas: numberToHex(fees.maxPriorityFeePerGas),
          paymasterAndData: '0x',
          signature: getDummySignature(chain, account.type),
        },
      }
      return sendOk(reply, 'UserOperation built', result)
    },
  )

  app.post<{ Params: { address: string } }>(
    '/console/api/sandbox/accounts/:address/sign',
    async (request, reply) => {
      auth(request)
      const { userOperation: op } = parseInput(SignBody, request.body)
      const chain = requireChain()
      const account = requireAccount(chain, request.params.address)
      if (getAddress(op.sender) !== getAddress(account.address)) {
        throw new InvalidInputError(`userOperation.sender ${op.sender} is not the account ${account.address}`)
      }
      const domainOp = {
        sender: getAddress(op.sender),
        nonce: BigInt(op.nonce),
        initCode: op.initCode as Hex,
        callData: op.callData as Hex,
        callGasLimit: BigInt(op.callGasLimit),
        verificationGasLimit: BigInt(op.verificationGasLimit),
        preVerificationGas: BigInt(op.preVerificationGas),
        maxFeePerGas: BigInt(op.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
        paymasterAndData: op.paymasterAndData as Hex,
        signature: '0x' as Hex,
      }
      const userOpHash = computeUserOpHash(domainOp, chain.chainId, chain.addresses.entryPoint)
      const owner = privateKeyToAccount(account.ownerPrivateKey)
      const signature = await signUserOpHash(chain, account.type, owner, userOpHash)
      const result: SignUserOperationResponse = {
        userOpHash,
        signature,
        userOperation: {
          sender: domainOp.sender,
          nonce: op.nonce,
          initCode: op.initCode,
          callData: op.callData,
          callGasLimit: op.callGasLimit,
          verificationGasLimit: op.verificationGasLimit,
          preVerificationGas: op.preVerificationGas,
          maxFeePerGas: op.maxFeePerGas,
          maxPriorityFeePerGas: op.maxPriorityFeePerGas,
          paymasterAndData: op.paymasterAndData,
          signature,
        },
      }
      return sendOk(reply, 'UserOperation signed', result)
    },
  )

  app.post('/console/api/sandbox/faucet', async (request, reply) => {
    auth(request)
    const body = parseInput(FaucetBody, request.body)
    const chain = requireChain()
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
    if (amount === 0n) throw new InvalidInputError('amount must be more than 0')
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
  })
}
