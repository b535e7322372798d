import {
  type Address,
  concat,
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  keccak256,
  maxUint256,
  parseEther,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  type Chain,
  createGasTank,
  depositToGasTank,
  getDepositInfo,
  getGasTankBalance,
  mintToken,
  smartAccountAbi,
  testTokenAbi,
  tokenPaymasterAbi,
  verifyingPaymasterAbi,
  withdrawFromGasTank,
} from '../../../src/main/service/chain'
import type { UserOperationV06 } from '../../../src/main/service/entryPoint'
import { simulateValidation } from '../../../src/main/service/entryPoint/v06/simulateValidation'
import {
  buildOp,
  getSmartAccountAddress,
  getSmartAccountInitCode,
  sendHandleOps,
  signSmartAccountOp,
  withEmbeddedChain,
} from './userOpHelpers'

/** Off-chain VerifyingSingletonPaymaster v1.1.0 hash (biconomy-protocol.md §4.1). */
function computeVerifyingHash(
  chain: Chain,
  op: UserOperationV06,
  paymasterId: Address,
  validUntil: number,
  validAfter: number,
) {
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        op.sender,
        op.nonce,
        keccak256(op.initCode),
        keccak256(op.callData),
        op.callGasLimit,
        op.verificationGasLimit,
        op.preVerificationGas,
        op.maxFeePerGas,
        op.maxPriorityFeePerGas,
        BigInt(chain.chainId),
        chain.addresses.verifyingPaymaster,
        paymasterId,
        validUntil,
        validAfter,
      ],
    ),
  )
}

describe('paymasters on the embedded chain', () => {
  let chain: Chain
  withEmbeddedChain((started) => {
    chain = started
  })

  it('creates, tops up and withdraws from a gas tank as its own paymasterId', async () => {
    const { paymasterId, balance } = await createGasTank(chain)
    expect(balance).toBe(parseEther('10'))
    expect((await depositToGasTank(chain, paymasterId, parseEther('1'), '0.6')).balance).toBe(
      parseEther('11'),
    )
    const to = privateKeyToAccount(generatePrivateKey()).address
    const { balance: after } = await withdrawFromGasTank(chain, paymasterId, to, parseEther('4'), '0.6')
    expect(after).toBe(parseEther('7'))
    expect(await chain.publicClient.getBalance({ address: to })).toBe(parseEther('4'))
    await expect(withdrawFromGasTank(chain, paymasterId, to, parseEther('100'), '0.6')).rejects.toThrow(
      /holds/,
    )
  })

  it('sponsors an undeployed account with a v1.1.0 verifying paymasterAndData; postOp charges the gas tank', async () => {
    const { paymasterId } = await createGasTank(chain, { fundWei: parseEther('1') })
    const owner = privateKeyToAccount(generatePrivateKey())
    const initCode = getSmartAccountInitCode(chain, owner.address)
    const account = await getSmartAccountAddress(chain, owner.address)
    expect(await chain.publicClient.getBalance({ address: account })).toBe(0n)

    const op = await buildOp(chain, { sender: account, initCode, callData: '0x' })
    const validUntil = Math.floor(Date.now() / 1000) + 300
    const validAfter = 0
    const hash = computeVerifyingHash(chain, op, paymasterId, validUntil, validAfter)
    const onChainHash = await chain.publicClient.readContract({
      address: chain.addresses.verifyingPaymaster,
      abi: verifyingPaymasterAbi,
      functionName: 'getHash',
      args: [op, paymasterId, validUntil, validAfter],
    })
    expect(onChainHash).toBe(hash)
    const pmSig = await chain.paymasterSigner.signMessage({ message: { raw: hash } })
    op.paymasterAndData = concat([
      chain.addresses.verifyingPaymaster,
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'uint48' }, { type: 'uint48' }, { type: 'bytes' }],
        [paymasterId, validUntil, validAfter, pmSig],
      ),
    ])
    expect((op.paymasterAndData.length - 2) / 2).toBe(276)
    op.signature = await signSmartAccountOp(chain, op, owner)

    const validation = await simulateValidation(chain, op)
    expect(validation.returnInfo.sigFailed).toBe(false)
    expect(validation.returnInfo.validUntil).toBe(validUntil)
    expect(validation.paymasterInfo.unstakeDelaySec).toBeGreaterThanOrEqual(86_400n)

    const before = await getGasTankBalance(chain, paymasterId, '0.6')
    const depositBefore = (await getDepositInfo(chain, chain.addresses.verifyingPaymaster)).deposit
    const { receipt, events } = await sendHandleOps(chain, [op])
    expect(events[0]?.success).toBe(true)
    expect(events[0]?.paymaster).toBe(chain.addresses.verifyingPaymaster)
    const after = await getGasTankBalance(chain, paymasterId, '0.6')
    const actualGasCost = events[0]?.actualGasCost ?? 0n
    expect(actualGasCost).toBeGreaterThan(0n)
    expect(depositBefore - (await getDepositInfo(chain, chain.addresses.verifyingPaymaster)).deposit).toBe(
      actualGasCost,
    )
    const deducted = receipt.logs
      .filter((l) => l.address.toLowerCase() === chain.addresses.verifyingPaymaster.toLowerCase())
      .map((l) => decodeEventLog({ abi: verifyingPaymasterAbi, data: l.data, topics: l.topics }))
      .find((e) => e.eventName === 'GasBalanceDeducted')
    if (deducted?.eventName !== 'GasBalanceDeducted') throw new Error('no GasBalanceDeducted event')
    expect(deducted.args._paymasterId).toBe(paymasterId)
    // postOp sees the cost so far (before its own gas) and adds 18500 gas of overhead at tx.gasprice.
    const overhead = 18_500n * receipt.effectiveGasPrice
    expect(before - after).toBe(deducted.args._charge)
    expect(deducted.args._charge).toBeGreaterThan(overhead)
    expect(deducted.args._charge).toBeLessThanOrEqual(actualGasCost + overhead)
    // The tank pays at least what the EntryPoint took from the paymaster's deposit (the deposit stays covered by
    // the tanks), and not much more.
    expect(deducted.args._charge).toBeGreaterThanOrEqual(actualGasCost)
    expect(deducted.args._charge).toBeLessThanOrEqual((actualGasCost * 105n) / 100n)
  })

  it('charges tUSDC through the token paymaster (EXTERNAL_EXCHANGE_RATE, 278-byte paymasterAndData)', async () => {
    const token = chain.addresses.tokens.find((t) => t.symbol === 'tUSDC')
    if (!token) throw new Error('no tUSDC')
    const owner = privateKeyToAccount(generatePrivateKey())
    const initCode = getSmartAccountInitCode(chain, owner.address)
    const account = await getSmartAccountAddress(chain, owner.address)
    await mintToken(chain, token.address, account, parseUnits('1000', 6))
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const approve = encodeFunctionData({
      abi: testTokenAbi,
      functionName: 'approve',
      args: [chain.addresses.tokenPaymaster, maxUint256],
    })
    const transfer = encodeFunctionData({
      abi: testTokenAbi,
      functionName: 'transfer',
      args: [recipient, parseUnits('5', 6)],
    })
    const op = await buildOp(chain, {
      sender: account,
      initCode,
      callData: encodeFunctionData({
        abi: smartAccountAbi,
        functionName: 'executeBatch_y6U',
        args: [
          [token.address, token.address],
          [0n, 0n],
          [approve, transfer],
        ],
      }),
    })
    const priceSource = 0 // EXTERNAL_EXCHANGE_RATE
    const validUntil = Math.floor(Date.now() / 1000) + 300
    const validAfter = 0
    const oracle = '0x0000000000000000000000000000000000000000'
    const exchangeRate = parseUnits('3000', 6) // tUSDC base units per 1e18 wei
    const priceMarkup = 1_100_000 // +10 %
    const hash = await chain.publicClient.readContract({
      address: chain.addresses.tokenPaymaster,
      abi: tokenPaymasterAbi,
      functionName: 'getHash',
      args: [op, priceSource, validUntil, validAfter, token.address, oracle, exchangeRate, priceMarkup],
    })
    const offChain = keccak256(
      encodeAbiParameters(
        [
          { type: 'address' },
          { type: 'uint256' },
          { type: 'bytes32' },
          { type: 'bytes32' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'address' },
          { type: 'uint8' },
          { type: 'uint48' },
          { type: 'uint48' },
          { type: 'address' },
          { type: 'address' },
          { type: 'uint256' },
          { type: 'uint32' },
        ],
        [
          op.sender,
          op.nonce,
          keccak256(op.initCode),
          keccak256(op.callData),
          op.callGasLimit,
          op.verificationGasLimit,
          op.preVerificationGas,
          op.maxFeePerGas,
          op.maxPriorityFeePerGas,
          BigInt(chain.chainId),
          chain.addresses.tokenPaymaster,
          priceSource,
          validUntil,
          validAfter,
          token.address,
          oracle,
          exchangeRate,
          priceMarkup,
        ],
      ),
    )
    expect(hash).toBe(offChain)
    const pmSig = await chain.paymasterSigner.signMessage({ message: { raw: hash } })
    op.paymasterAndData = concat([
      chain.addresses.tokenPaymaster,
      '0x00',
      encodeAbiParameters(
        [
          { type: 'uint48' },
          { type: 'uint48' },
          { type: 'address' },
          { type: 'address' },
          { type: 'uint256' },
          { type: 'uint32' },
        ],
        [validUntil, validAfter, token.address, oracle, exchangeRate, priceMarkup],
      ),
      pmSig,
    ])
    expect((op.paymasterAndData.length - 2) / 2).toBe(278)
    op.signature = await signSmartAccountOp(chain, op, owner)

    const { receipt, events } = await sendHandleOps(chain, [op])
    expect(events[0]?.success).toBe(true)
    const tokenOp = receipt.logs
      .filter((l) => l.address.toLowerCase() === chain.addresses.tokenPaymaster.toLowerCase())
      .map((l) => decodeEventLog({ abi: tokenPaymasterAbi, data: l.data, topics: l.topics }))
      .find((e) => e.eventName === 'TokenPaymasterOperation')
    if (tokenOp?.eventName !== 'TokenPaymasterOperation') throw new Error('no TokenPaymasterOperation event')
    const actualGasCost = events[0]?.actualGasCost ?? 0n
    // postOp charges ((cost so far + 45000 gas) * rate / 1e18) * markup / 1e6; the cost so far excludes postOp itself.
    const toTokens = (wei: bigint) => (((wei * exchangeRate) / 10n ** 18n) * BigInt(priceMarkup)) / 1_000_000n
    const overhead = 45_000n * receipt.effectiveGasPrice
    const charge = tokenOp.args.totalCharge
    expect(charge).toBeGreaterThan(toTokens(overhead))
    expect(charge).toBeLessThanOrEqual(toTokens(actualGasCost + overhead))
    expect(tokenOp.args.sender).toBe(account)
    expect(tokenOp.args.exchangeRate).toBe(exchangeRate)
    const paymasterTokens = await chain.publicClient.readContract({
      address: token.address,
      abi: testTokenAbi,
      functionName: 'balanceOf',
      args: [chain.addresses.tokenPaymaster],
    })
    expect(paymasterTokens).toBe(charge)
    expect(
      await chain.publicClient.readContract({
        address: token.address,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [recipient],
      }),
    ).toBe(parseUnits('5', 6))
  })
})
