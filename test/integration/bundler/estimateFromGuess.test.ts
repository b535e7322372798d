import { type Address, encodeAbiParameters, type Hex, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { type Chain, fundEth } from '../../../src/main/service/chain'
import { estimateUserOperationGas } from '../../../src/main/service/entryPoint/v06/estimateUserOperationGas'
import { createFirstCheckGuesses } from '../../../src/main/service/entryPoint/v06/firstCheckGuesses'
import {
  encodeSmartAccountExecute,
  getFees,
  getSmartAccountAddress,
  getSmartAccountInitCode,
  sendHandleOps,
  signSmartAccountOp,
  withEmbeddedChain,
} from '../chain/userOpHelpers'
import { randomAddress } from './bundlerTestKit'

describe('gas estimation that tries the last limits of the same operation shape first', () => {
  let chain: Chain
  withEmbeddedChain((started) => {
    chain = started
  })

  async function newAccount() {
    const owner = privateKeyToAccount(generatePrivateKey())
    const sender = await getSmartAccountAddress(chain, owner.address)
    await fundEth(chain, sender, parseEther('1'))
    // The module's signature layout with a well-formed ECDSA signature of something else (as SDKs stub it).
    const dummySignature = encodeAbiParameters(
      [{ type: 'bytes' }, { type: 'address' }],
      [await owner.signMessage({ message: 'stub' }), chain.addresses.ecdsaModule],
    )
    return { owner, sender, initCode: getSmartAccountInitCode(chain, owner.address), dummySignature }
  }

  const estimate = async (
    guesses: ReturnType<typeof createFirstCheckGuesses>,
    account: Awaited<ReturnType<typeof newAccount>>,
    to: Address,
  ) =>
    estimateUserOperationGas({
      chain,
      userOperation: {
        sender: account.sender,
        nonce: 0n,
        initCode: account.initCode,
        callData: encodeSmartAccountExecute(to, 1n),
        paymasterAndData: '0x',
        signature: account.dummySignature,
      },
      gasFees: await getFees(chain),
      guesses,
    })

  it('measures and verifies a repeated shape with one simulation at its last limits, returning the same limits', async () => {
    const guesses = createFirstCheckGuesses()
    const account = await newAccount()
    const first = await estimate(guesses, account, randomAddress())
    expect(first.measured.fromGuess).toBe(false)
    expect(first.measured.simulations).toBeGreaterThanOrEqual(2)
    const second = await estimate(guesses, account, randomAddress())
    expect(second.measured.fromGuess).toBe(true)
    expect(second.measured.simulations).toBe(1)
    expect(second.callGasLimit).toBe(first.callGasLimit)
    expect(second.verificationGasLimit).toBe(first.verificationGasLimit)
  })

  it('when the run at the last limits measures differently, estimates from scratch and remembers the new limits', async () => {
    const guesses = createFirstCheckGuesses()
    const account = await newAccount()
    // 1 wei to a fresh address creates an account (25,000 gas more) than 1 wei to the sender itself.
    const toNew = await estimate(guesses, account, randomAddress())
    const toSelf = await estimate(guesses, account, account.sender)
    expect(toSelf.measured.fromGuess).toBe(false)
    expect(toSelf.measured.simulations).toBeGreaterThanOrEqual(3)
    expect(toSelf.callGasLimit).toBeLessThan(toNew.callGasLimit)
    const again = await estimate(guesses, account, account.sender)
    expect(again.measured.fromGuess).toBe(true)
    expect(again.callGasLimit).toBe(toSelf.callGasLimit)

    // The limits it returned are enough for the real thing.
    const op = {
      sender: account.sender,
      nonce: 0n,
      initCode: account.initCode,
      callData: encodeSmartAccountExecute(account.sender, 1n),
      callGasLimit: again.callGasLimit,
      verificationGasLimit: again.verificationGasLimit,
      preVerificationGas: again.preVerificationGas,
      maxFeePerGas: again.maxFeePerGas,
      maxPriorityFeePerGas: again.maxPriorityFeePerGas,
      paymasterAndData: '0x' as Hex,
      signature: '0x' as Hex,
    }
    op.signature = await signSmartAccountOp(chain, op, account.owner)
    const { events } = await sendHandleOps(chain, [op])
    expect(events[0]?.success).toBe(true)
  })
})
