import { parseEther, parseUnits, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  type Chain,
  createGasTank,
  mintToken,
  tokenPaymasterAbi,
  verifyingPaymasterAbi,
} from '../../../src/main/service/chain'
import type { UserOperationV06 } from '../../../src/main/service/entryPoint'
import { simulateValidation } from '../../../src/main/service/entryPoint/v06/simulateValidation'
import {
  getTokenPaymasterHash,
  PriceSource,
  signTokenPaymasterAndData,
} from '../../../src/main/service/entryPoint/v06/tokenPaymasterAndData'
import {
  getVerifyingPaymasterHash,
  signVerifyingPaymasterAndData,
} from '../../../src/main/service/entryPoint/v06/verifyingPaymasterAndData'
import {
  buildOp,
  encodeSmartAccountExecute,
  getSmartAccountAddress,
  getSmartAccountInitCode,
  signSmartAccountOp,
  withEmbeddedChain,
} from '../chain/userOpHelpers'

let chain: Chain
withEmbeddedChain((started) => {
  chain = started
})

async function newAccountOp() {
  const owner = privateKeyToAccount(generatePrivateKey())
  const sender = await getSmartAccountAddress(chain, owner.address)
  const op: UserOperationV06 = await buildOp(chain, {
    sender,
    initCode: getSmartAccountInitCode(chain, owner.address),
    callData: encodeSmartAccountExecute(zeroAddress, 0n),
    nonce: 0n,
  })
  return { op, owner }
}

describe('paymaster hashes and signatures against the deployed contracts', () => {
  it('computes the verifying paymaster hash exactly as its getHash, and the signed data validates on chain', async () => {
    const { paymasterId } = await createGasTank(chain, { fundWei: parseEther('1') })
    const owner = privateKeyToAccount(generatePrivateKey())
    const op = await buildOp(chain, {
      sender: await getSmartAccountAddress(chain, owner.address),
      initCode: getSmartAccountInitCode(chain, owner.address),
      callData: encodeSmartAccountExecute(zeroAddress, 0n),
    })
    const fields = {
      paymaster: chain.addresses.verifyingPaymaster,
      paymasterId,
      validUntil: 2_000_000_000,
      validAfter: 0,
    }
    const onChain = await chain.publicClient.readContract({
      address: chain.addresses.verifyingPaymaster,
      abi: verifyingPaymasterAbi,
      functionName: 'getHash',
      args: [op, paymasterId, fields.validUntil, fields.validAfter],
    })
    expect(getVerifyingPaymasterHash(op, { ...fields, chainId: chain.chainId })).toBe(onChain)

    op.paymasterAndData = await signVerifyingPaymasterAndData(op, {
      ...fields,
      chainId: chain.chainId,
      signer: chain.paymasterSigner,
    })
    op.signature = await signSmartAccountOp(chain, op, owner)
    const validation = await simulateValidation(chain, op)
    expect(validation.returnInfo.sigFailed).toBe(false)
    expect(validation.returnInfo.validUntil).toBe(fields.validUntil)
  })

  it('computes the token paymaster hash exactly as its getHash, and the signed data validates on chain', async () => {
    const { op, owner } = await newAccountOp()
    const token = chain.addresses.tokens[0]!.address
    await mintToken(chain, token, op.sender, parseUnits('1000', 6))
    const fields = {
      paymaster: chain.addresses.tokenPaymaster,
      priceSource: PriceSource.externalExchangeRate,
      validUntil: 2_000_000_000,
      validAfter: 0,
      feeToken: token,
      oracleAggregator: zeroAddress,
      exchangeRate: 2_000_000_000n,
      priceMarkup: 1_100_000,
    }
    const onChain = await chain.publicClient.readContract({
      address: chain.addresses.tokenPaymaster,
      abi: tokenPaymasterAbi,
      functionName: 'getHash',
      args: [
        op,
        fields.priceSource,
        fields.validUntil,
        fields.validAfter,
        fields.feeToken,
        fields.oracleAggregator,
        fields.exchangeRate,
        fields.priceMarkup,
      ],
    })
    expect(getTokenPaymasterHash(op, { ...fields, chainId: chain.chainId })).toBe(onChain)
    op.paymasterAndData = await signTokenPaymasterAndData(op, {
      ...fields,
      chainId: chain.chainId,
      signer: chain.paymasterSigner,
    })
    const parsed = await chain.publicClient.readContract({
      address: chain.addresses.tokenPaymaster,
      abi: tokenPaymasterAbi,
      functionName: 'parsePaymasterAndData',
      args: [op.paymasterAndData],
    })
    expect(parsed.slice(0, 7)).toEqual([
      0,
      fields.validUntil,
      0,
      token,
      zeroAddress,
      2_000_000_000n,
      1_100_000,
    ])
    op.signature = await signSmartAccountOp(chain, op, owner)
    const validation = await simulateValidation(chain, op)
    expect(validation.returnInfo.sigFailed).toBe(false)
    expect(validation.returnInfo.validUntil).toBe(fields.validUntil)
    expect(validation.returnInfo.paymasterContext).not.toBe('0x')
  })
})
