import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBigInt,
  maxUint256,
  numberToHex,
  size,
  slice,
} from 'viem'
import {
  entryPoint09Abi,
  entryPoint09Address,
  getUserOperationHash,
  toPackedUserOperation,
  toSimple7702SmartAccount,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { mintToken, testTokenAbi } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { callBundler, publicClientOf, randomAddress, waitFor } from '../bundler/bundlerTestKit'
import { callConsole, callPaymaster, createDapp, registerToken, tokenBalance } from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

const PAYMASTER_SIG_MAGIC = '22e325a297439656'

/** testToken.mint(to, 7). */
const mintCall = (token: Address, to: Address) => ({
  to: token,
  data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, 7n] }),
})

/** A fresh Simple7702Account v0.9 (unfunded: the paymaster pays) and its first operation, unsigned, in RPC form. */
async function prepareDelegatingOperation(calls: { to: Address; data: Hex }[]) {
  const client = publicClientOf(service)
  const owner = privateKeyToAccount(generatePrivateKey())
  const account = await toSimple7702SmartAccount({ client, owner, entryPoint: '0.9' })
  const authorization = await owner.signAuthorization({
    address: service.chain!.addresses.simple7702AccountV09,
    chainId: service.chain!.chainId,
    nonce: await client.getTransactionCount({ address: owner.address }),
  })
  const callData = await account.encodeCalls(calls)
  const block = await client.getBlock()
  const maxFeePerGas = (block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n
  const wire = {
    sender: account.address,
    nonce: numberToHex(await account.getNonce()),
    factory: '0x7702',
    factoryData: '0x',
    callData,
    maxFeePerGas: numberToHex(maxFeePerGas),
    maxPriorityFeePerGas: numberToHex(1_000_000_000n),
    signature: await account.getStubSignature(),
    eip7702Auth: {
      chainId: numberToHex(authorization.chainId),
      address: authorization.address,
      nonce: numberToHex(authorization.nonce),
      yParity: numberToHex(authorization.yParity ?? 0),
      r: authorization.r,
      s: authorization.s,
    },
  }
  return { client, account, authorization, wire }
}

/** The RPC operation as viem's UserOperation (quantities as bigint). */
function toViemOperation(
  wire: Record<string, unknown>,
  authorization: UserOperation<'0.9'>['authorization'],
) {
  const big = (field: string) => BigInt(wire[field] as Hex)
  return {
    ...(wire as object),
    nonce: big('nonce'),
    callGasLimit: big('callGasLimit'),
    verificationGasLimit: big('verificationGasLimit'),
    preVerificationGas: big('preVerificationGas'),
    maxFeePerGas: big('maxFeePerGas'),
    maxPriorityFeePerGas: big('maxPriorityFeePerGas'),
    paymasterVerificationGasLimit: big('paymasterVerificationGasLimit'),
    paymasterPostOpGasLimit: big('paymasterPostOpGasLimit'),
    authorization,
  } as UserOperation<'0.9'>
}

/**
 * ERC-7677 with parallel signing: stub data (the request keeps a `paymasterSignature` field), the bundler's estimate,
 * the account's signature, then pm_getPaymasterData a second later (the stub's window is signed again); the operation
 * with the paymaster's answer is sent and mined. Checks each step's answer; returns the hash the account signed.
 */
async function signInParallel(params: {
  apiKey: string
  wire: Record<string, unknown>
  account: Awaited<ReturnType<typeof toSimple7702SmartAccount>>
  authorization?: UserOperation<'0.9'>['authorization']
  context?: Record<string, unknown>
  paymaster: Address
  /** Runs after the account has signed, before pm_getPaymasterData (default: a second passes). */
  meanwhile?: () => Promise<void>
}) {
  const { apiKey, wire, account, authorization, paymaster } = params
  const chainId = numberToHex(service.chain!.chainId)
  const rpc = (method: string, op: unknown) =>
    callPaymaster(service, apiKey, method, [op, entryPoint09Address, chainId, params.context])
  // `paymasterSignature: '0x'`: the client keeps the field, so the paymaster answers its signature there.
  const stub = await rpc('pm_getPaymasterStubData', { ...wire, paymasterSignature: '0x' })
  expect(stub.body.error).toBeUndefined()
  expect(stub.body.result.paymaster).toBe(paymaster)
  // The paymaster's fields only; a 65-byte stub signature apart.
  expect(stub.body.result.paymasterData.endsWith(PAYMASTER_SIG_MAGIC)).toBe(false)
  expect(size(stub.body.result.paymasterSignature)).toBe(65)

  const paymasterFields = {
    paymaster: stub.body.result.paymaster,
    paymasterData: stub.body.result.paymasterData,
    paymasterVerificationGasLimit: stub.body.result.paymasterVerificationGasLimit,
    paymasterPostOpGasLimit: stub.body.result.paymasterPostOpGasLimit,
    paymasterSignature: stub.body.result.paymasterSignature,
  }
  const estimate = await callBundler(service, 'eth_estimateUserOperationGas', [
    { ...wire, ...paymasterFields },
    entryPoint09Address,
  ])
  expect(estimate.body.error).toBeUndefined()
  const unsigned = {
    ...wire,
    ...paymasterFields,
    callGasLimit: estimate.body.result.callGasLimit,
    verificationGasLimit: estimate.body.result.verificationGasLimit,
    preVerificationGas: estimate.body.result.preVerificationGas,
  }

  // The account signs now, with the stub's paymaster signature in place: v0.9's hash leaves it out.
  const signedHash = getUserOperationHash({
    chainId: service.chain!.chainId,
    entryPointAddress: entryPoint09Address,
    entryPointVersion: '0.9',
    userOperation: toViemOperation(unsigned, authorization),
  })
  const signature = await account.signUserOperation(toViemOperation(unsigned, authorization))
  // A second later the paymaster signs the window the stub named (the account signed it), not a new one.
  await (params.meanwhile?.() ?? new Promise((resolve) => setTimeout(resolve, 1_100)))

  const final = await rpc('pm_getPaymasterData', unsigned)
  expect(final.body.error).toBeUndefined()
  expect(final.body.result).toMatchObject({
    paymaster,
    paymasterData: paymasterFields.paymasterData,
    paymasterVerificationGasLimit: paymasterFields.paymasterVerificationGasLimit,
    paymasterPostOpGasLimit: paymasterFields.paymasterPostOpGasLimit,
  })
  expect(size(final.body.result.paymasterSignature)).toBe(65)
  expect(final.body.result.paymasterSignature).not.toBe(paymasterFields.paymasterSignature)

  const operation = { ...unsigned, paymasterSignature: final.body.result.paymasterSignature, signature }
  const sent = await callBundler(service, 'eth_sendUserOperation', [operation, entryPoint09Address])
  expect(sent.body.error).toBeUndefined()
  expect(sent.body.result).toBe(signedHash)
  const receipt = await waitFor(async () => {
    const { body } = await callBundler(service, 'eth_getUserOperationReceipt', [signedHash])
    return body.result
  }, 30_000)
  expect(receipt.success).toBe(true)
  expect(receipt.paymaster).toBe(paymaster)
  return { signedHash, operation }
}

describe("EntryPoint v0.9's paymasterSignature: the account and the paymaster sign in parallel", () => {
  it('the account signs before pm_getPaymasterData answers; the answer keeps the stub paymasterData and brings the signature in paymasterSignature; the operation is mined with the userOpHash the EntryPoint computes', async () => {
    const { apiKey } = await createDapp(service)
    const token = await registerToken(service, apiKey, ['mint'])
    const alice = randomAddress()
    const { client, authorization, account, wire } = await prepareDelegatingOperation([
      mintCall(token, alice),
    ])
    const paymaster = service.chain!.addresses.verifyingPaymasterV09
    const { signedHash, operation } = await signInParallel({
      apiKey,
      wire,
      account,
      authorization,
      paymaster,
    })
    expect(await tokenBalance(service, token, alice)).toBe(7n)

    // The EntryPoint hashes the mined operation (its signature packed after paymasterData) as the bundler did.
    const packed = toPackedUserOperation(toViemOperation(operation, authorization))
    expect(packed.paymasterAndData.endsWith(PAYMASTER_SIG_MAGIC)).toBe(true)
    const onChainHash = await client.readContract({
      address: entryPoint09Address,
      abi: entryPoint09Abi,
      functionName: 'getUserOpHash',
      args: [packed],
    })
    expect(onChainHash).toBe(signedHash)
    const byHash = await callBundler(service, 'eth_getUserOperationByHash', [signedHash])
    expect(byHash.body.result.userOperation.paymasterSignature).toBe(operation.paymasterSignature)
  }, 60_000)

  it("a dApp asking a block window: the stub's paymasterData names a block range, pm_getPaymasterData signs the same range blocks later (the account's signature holds), and the operation is mined inside it", async () => {
    const { apiKey } = await createDapp(service)
    const policies = await callConsole(service, `/console/api/dapps/${apiKey}/policies`, {
      method: 'PATCH',
      body: { blockWindow: { validForBlocks: 10 } },
    })
    expect(policies.status).toBe(200)
    const token = await registerToken(service, apiKey, ['mint'])
    const { client, authorization, account, wire } = await prepareDelegatingOperation([
      mintCall(token, randomAddress()),
    ])
    const { operation, signedHash } = await signInParallel({
      apiKey,
      wire,
      account,
      authorization,
      paymaster: service.chain!.addresses.verifyingPaymasterV09,
      meanwhile: () => client.request({ method: 'anvil_mine', params: ['0x3'] } as never),
    })
    // paymasterId ‖ validUntil ‖ validAfter: both with v0.9's top bit, the blocks below it.
    const flag = 2n ** 47n
    const validUntil = hexToBigInt(slice(operation.paymasterData as Hex, 20, 26))
    const validAfter = hexToBigInt(slice(operation.paymasterData as Hex, 26, 32))
    expect(validUntil > flag && validAfter > flag).toBe(true)
    const { body } = await callBundler(service, 'eth_getUserOperationReceipt', [signedHash])
    const minedIn = hexToBigInt(body.result.receipt.blockNumber)
    expect(minedIn > validAfter - flag && minedIn <= validUntil - flag).toBe(true)
  }, 60_000)

  it('ERC20 mode signs in parallel too: the v0.9 token paymaster reads its paymasterSignature and takes the fee in the token', async () => {
    const { apiKey } = await createDapp(service)
    const token = await registerToken(service, apiKey, ['mint', 'approve'])
    const tokenPaymaster = service.chain!.addresses.tokenPaymasterV09
    const approve = {
      to: token,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [tokenPaymaster, maxUint256],
      }),
    }
    // Delegated and approved in a sponsored first operation; then tokens to pay with.
    const first = await prepareDelegatingOperation([approve])
    await signInParallel({
      ...first,
      apiKey,
      paymaster: service.chain!.addresses.verifyingPaymasterV09,
    })
    const { account } = first
    await mintToken(service.chain!, token, account.address, 1_000_000_000n)
    const to = randomAddress()
    const callData = await account.encodeCalls([
      { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 10n] }) },
    ])
    const { eip7702Auth: _, factory: __, factoryData: ___, ...rest } = first.wire
    const feesBefore = await tokenBalance(service, token, tokenPaymaster)
    await signInParallel({
      apiKey,
      account,
      wire: { ...rest, nonce: numberToHex(await account.getNonce()), callData },
      context: { mode: 'ERC20', tokenInfo: { feeTokenAddress: token } },
      paymaster: tokenPaymaster,
    })
    expect(await tokenBalance(service, token, to)).toBe(10n)
    const paid = 1_000_000_000n - 10n - (await tokenBalance(service, token, account.address))
    expect(paid > 0n).toBe(true)
    expect((await tokenBalance(service, token, tokenPaymaster)) - feesBefore).toBe(paid)
  }, 60_000)

  it("a request without the paymasterSignature field (viem's paymaster actions keep only the fields they know, and hash paymasterData whole) gets the signature at the end of paymasterData, as for v0.8", async () => {
    const { apiKey } = await createDapp(service)
    const token = await registerToken(service, apiKey, ['mint'])
    const { wire } = await prepareDelegatingOperation([mintCall(token, randomAddress())])
    const chainId = numberToHex(service.chain!.chainId)
    const stub = await callPaymaster(service, apiKey, 'pm_getPaymasterStubData', [
      wire,
      entryPoint09Address,
      chainId,
    ])
    expect(stub.body.result.paymasterSignature).toBeUndefined()
    const data: string = stub.body.result.paymasterData
    // paymasterId, validUntil, validAfter (32) ‖ signature (65), no v0.9 suffix: the userOpHash covers it all.
    expect(size(data as Hex)).toBe(32 + 65)
    expect(data.endsWith(PAYMASTER_SIG_MAGIC)).toBe(false)
  })
})
