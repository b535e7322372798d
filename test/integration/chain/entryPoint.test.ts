import { encodeFunctionData, parseEther, parseUnits, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  type Chain,
  createGasTank,
  entryPointAbi,
  FailedOpError,
  fundEth,
  getEntryPointBalance,
  increaseTime,
  mine,
  revert,
  setAutomine,
  setIntervalMining,
  snapshot,
  testTokenAbi,
  traceCall,
} from '../../../src/main/service/chain'
import { simulateHandleOp } from '../../../src/main/service/entryPoint/v06/simulateHandleOp'
import { simulateValidation } from '../../../src/main/service/entryPoint/v06/simulateValidation'
import {
  buildOp,
  getSmartAccountAddress,
  getSmartAccountInitCode,
  signSmartAccountOp,
  withEmbeddedChain,
} from './userOpHelpers'

describe('EntryPoint simulations and node control', () => {
  let chain: Chain
  withEmbeddedChain((started) => {
    chain = started
  })

  async function newAccountOp(fund: bigint) {
    const owner = privateKeyToAccount(generatePrivateKey())
    const sender = await getSmartAccountAddress(chain, owner.address)
    if (fund > 0n) await fundEth(chain, sender, fund)
    const op = await buildOp(chain, { sender, initCode: getSmartAccountInitCode(chain, owner.address) })
    op.signature = await signSmartAccountOp(chain, op, owner)
    return { op, owner, sender }
  }

  it('simulateValidation of an op whose account cannot pay throws FailedOpError "AA21 didn\'t pay prefund"', async () => {
    const { op } = await newAccountOp(0n)
    const err = await simulateValidation(chain, op).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(FailedOpError)
    const failed = err as FailedOpError
    expect(failed.reason).toBe("AA21 didn't pay prefund")
    expect(failed.aaCode).toBe('AA21')
    expect(failed.opIndex).toBe(0)
    expect(failed.rpcCode).toBe(-32500)
  })

  it('simulateValidation reports paymaster failures (AA31 no deposit, AA33 reverted) with the paymaster rpc code', async () => {
    const { op } = await newAccountOp(0n)
    // A paymasterAndData too short to decode.
    op.paymasterAndData = chain.addresses.verifyingPaymaster
    // No gas tank yet: the verifying paymaster's EntryPoint deposit is empty.
    const noDeposit = (await simulateValidation(chain, op).catch((e: unknown) => e)) as FailedOpError
    expect(noDeposit).toBeInstanceOf(FailedOpError)
    expect(noDeposit.reason).toBe('AA31 paymaster deposit too low')
    expect(noDeposit.rpcCode).toBe(-32501)

    await createGasTank(chain, { fundWei: parseEther('1') })
    const reverted = (await simulateValidation(chain, op).catch((e: unknown) => e)) as FailedOpError
    expect(reverted).toBeInstanceOf(FailedOpError)
    expect(reverted.aaCode).toBe('AA33')
    expect(reverted.reason).toMatch(/^AA33 reverted/)
    expect(reverted.rpcCode).toBe(-32501)
  })

  it('simulateValidation of a good op returns the decoded ValidationResult', async () => {
    const { op } = await newAccountOp(parseEther('1'))
    const result = await simulateValidation(chain, op)
    expect(result.returnInfo.sigFailed).toBe(false)
    expect(result.returnInfo.prefund).toBeGreaterThan(0n)
    expect(result.returnInfo.preOpGas).toBeGreaterThan(0n)
    expect(result.factoryInfo.unstakeDelaySec).toBeGreaterThanOrEqual(86_400n)
  })

  it('simulateValidation flags a wrong owner signature as sigFailed instead of reverting', async () => {
    const { op } = await newAccountOp(parseEther('1'))
    op.signature = await signSmartAccountOp(chain, op, privateKeyToAccount(generatePrivateKey()))
    const result = await simulateValidation(chain, op)
    expect(result.returnInfo.sigFailed).toBe(true)
  })

  it('simulateHandleOp returns the ExecutionResult and decodes an Error(string) of the target call', async () => {
    const { op, sender } = await newAccountOp(parseEther('1'))
    const token = chain.addresses.tokens[0]
    if (!token) throw new Error('no token')
    const ok = await simulateHandleOp(chain, op)
    expect(ok.paid).toBeGreaterThan(0n)
    expect(ok.targetSuccess).toBe(false) // no target: zero address, empty result
    const failing = await simulateHandleOp(
      chain,
      op,
      token.address,
      encodeFunctionData({
        abi: testTokenAbi,
        functionName: 'transferFrom',
        args: [sender, zeroAddress, parseUnits('1', 6)],
      }),
    )
    expect(failing.targetSuccess).toBe(false)
    expect(failing.targetRevertReason).toBe('ERC20: insufficient allowance')
  })

  it('runs a geth JS tracer over simulateValidation with debug_traceCall', async () => {
    const { op } = await newAccountOp(parseEther('1'))
    const tracer = `{
      counts: {},
      step: function (log) { var op = log.op.toString(); this.counts[op] = (this.counts[op] || 0) + 1 },
      fault: function () {},
      result: function () { return this.counts }
    }`
    const counts = await traceCall<Record<string, number>>(
      chain,
      {
        to: chain.addresses.entryPoint,
        data: encodeFunctionData({ abi: entryPointAbi, functionName: 'simulateValidation', args: [op] }),
      },
      { tracer },
    )
    expect(counts.SLOAD).toBeGreaterThan(0)
    expect(counts.CALL).toBeGreaterThan(0)
  })

  it('reverts to a snapshot, moves time, and switches mining modes', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address
    const id = await snapshot(chain)
    await fundEth(chain, address, parseEther('5'))
    expect(await chain.publicClient.getBalance({ address })).toBe(parseEther('5'))
    await revert(chain, id)
    expect(await chain.publicClient.getBalance({ address })).toBe(0n)

    const before = await chain.publicClient.getBlock()
    await increaseTime(chain, 3600)
    await mine(chain)
    const after = await chain.publicClient.getBlock()
    expect(after.number).toBe(before.number + 1n)
    expect(after.timestamp - before.timestamp).toBeGreaterThanOrEqual(3600n)

    await setAutomine(chain, false)
    const hash = await chain.executor.client.sendTransaction({ to: address, value: 1n })
    expect(await chain.publicClient.getTransactionReceipt({ hash }).catch(() => null)).toBeNull()
    await mine(chain)
    expect((await chain.publicClient.getTransactionReceipt({ hash })).status).toBe('success')
    await setIntervalMining(chain, 0)
    await setAutomine(chain, true)
    expect(await getEntryPointBalance(chain, address)).toBe(0n)
  })
})
