import { type Address, encodeFunctionData, type Hex, numberToHex, size } from 'viem'
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
import { testTokenAbi } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { callBundler, publicClientOf, randomAddress, waitFor } from '../bundler/bundlerTestKit'
import { callPaymaster, createDapp, registerToken, tokenBalance } from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

const PAYMASTER_SIG_MAGIC = '22e325a297439656'

/** A fresh Simple7702Account v0.9 (unfunded: the paymaster pays) and its first operation, unsigned, in RPC form. */
async function prepareDelegatingOperation(token: Address, to: Address) {
  const client = publicClientOf(service)
  const owner = privateKeyToAccount(generatePrivateKey())
  const account = await toSimple7702SmartAccount({ client, owner, entryPoint: '0.9' })
  const authorization = await owner.signAuthorization({
    address: service.chain!.addresses.simple7702AccountV09,
    chainId: service.chain!.chainId,
    nonce: await client.getTransactionCount({ address: owner.address }),
  })
  const callData = await account.encodeCalls([
    { to: token, data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, 7n] }) },
  ])
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

describe("EntryPoint v0.9's paymasterSignature: the account and the paymaster sign in parallel", () => {
  it('the account signs before pm_getPaymasterData answers; the answer keeps the stub paymasterData and brings the signature in paymasterSignature; the operation is mined with the userOpHash the EntryPoint computes', async () => {
    const { apiKey } = await createDapp(service)
    const token = await registerToken(service, apiKey, ['mint'])
    const alice = randomAddress()
    const { client, authorization, account, wire } = await prepareDelegatingOperation(token, alice)
    const chainId = numberToHex(service.chain!.chainId)
    // `paymasterSignature: '0x'`: the client keeps the field, so the paymaster answers its signature there.
    const request = { ...wire, paymasterSignature: '0x' }

    const stub = await callPaymaster(service, apiKey, 'pm_getPaymasterStubData', [
      request,
      entryPoint09Address,
      chainId,
    ])
    expect(stub.body.error).toBeUndefined()
    const paymaster = service.chain!.addresses.verifyingPaymasterV09
    expect(stub.body.result.paymaster).toBe(paymaster)
    // The verifying paymaster's fields only (paymasterId, validUntil, validAfter); a 65-byte stub signature apart.
    expect(size(stub.body.result.paymasterData)).toBe(32)
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
    await new Promise((resolve) => setTimeout(resolve, 1_100))

    const final = await callPaymaster(service, apiKey, 'pm_getPaymasterData', [
      unsigned,
      entryPoint09Address,
      chainId,
    ])
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
    expect(await tokenBalance(service, token, alice)).toBe(7n)

    // The EntryPoint hashes the mined operation (its signature packed after paymasterData) as the bundler did.
    const packed = toPackedUserOperation(
      toViemOperation(
        { ...operation, paymasterSignature: final.body.result.paymasterSignature },
        authorization,
      ),
    )
    expect(packed.paymasterAndData.endsWith(PAYMASTER_SIG_MAGIC)).toBe(true)
    const onChainHash = await client.readContract({
      address: entryPoint09Address,
      abi: entryPoint09Abi,
      functionName: 'getUserOpHash',
      args: [packed],
    })
    expect(onChainHash).toBe(signedHash)
    const byHash = await callBundler(service, 'eth_getUserOperationByHash', [signedHash])
    expect(byHash.body.result.userOperation.paymasterSignature).toBe(final.body.result.paymasterSignature)
  }, 60_000)

  it("a request without the paymasterSignature field (viem's paymaster actions keep only the fields they know, and hash paymasterData whole) gets the signature at the end of paymasterData, as for v0.8", async () => {
    const { apiKey } = await createDapp(service)
    const token = await registerToken(service, apiKey, ['mint'])
    const { wire } = await prepareDelegatingOperation(token, randomAddress())
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
