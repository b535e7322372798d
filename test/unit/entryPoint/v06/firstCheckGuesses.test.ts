import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createFirstCheckGuesses } from '../../../../src/main/service/entryPoint/v06/firstCheckGuesses'
import type { PartialUserOperation } from '../../../../src/main/service/entryPoint/v06/userOperation'

const op = (fields: Partial<PartialUserOperation> = {}): PartialUserOperation =>
  ({
    sender: '0x1111111111111111111111111111111111111111',
    nonce: 0n,
    initCode: '0x',
    callData: `0xb61d27f6${'00'.repeat(96)}` as Hex,
    paymasterAndData: '0x',
    signature: `0x${'22'.repeat(65)}` as Hex,
    ...fields,
  }) as PartialUserOperation
const limits = { verificationGasLimit: 100_000n, callGasLimit: 50_000n }

describe('estimate guesses', () => {
  it('share a guess between operations of one shape (nonce and call arguments aside)', () => {
    const guesses = createFirstCheckGuesses()
    guesses.remember({ userOperation: op() }, limits)
    expect(
      guesses.get({ userOperation: op({ nonce: 7n, callData: `0xb61d27f6${'ab'.repeat(96)}` }) }),
    ).toEqual(limits)
  })

  it('keep apart what changes the gas: sender, selector, call data length, initCode, paymaster, state override', () => {
    const guesses = createFirstCheckGuesses()
    guesses.remember({ userOperation: op() }, limits)
    const others: Parameters<typeof guesses.get>[0][] = [
      { userOperation: op({ sender: '0x2222222222222222222222222222222222222222' }) },
      { userOperation: op({ callData: `0x47e1da2a${'00'.repeat(96)}` }) },
      { userOperation: op({ callData: `0xb61d27f6${'00'.repeat(128)}` }) },
      { userOperation: op({ initCode: `0x${'33'.repeat(40)}` }) },
      { userOperation: op({ paymasterAndData: `0x${'44'.repeat(20)}${'00'.repeat(97)}` }) },
      {
        userOperation: op(),
        stateOverride: { '0x5555555555555555555555555555555555555555': { balance: '0x1' } },
      },
    ]
    for (const other of others) expect(guesses.get(other)).toBeUndefined()
  })

  it('forget a shape on request and hold at most 1024 shapes, dropping the oldest', () => {
    const guesses = createFirstCheckGuesses()
    guesses.remember({ userOperation: op() }, limits)
    guesses.forget({ userOperation: op() })
    expect(guesses.get({ userOperation: op() })).toBeUndefined()
    const sender = (i: number) => `0x${i.toString(16).padStart(40, '0')}` as Hex
    for (let i = 0; i < 1025; i++) guesses.remember({ userOperation: op({ sender: sender(i) }) }, limits)
    expect(guesses.get({ userOperation: op({ sender: sender(0) }) })).toBeUndefined()
    expect(guesses.get({ userOperation: op({ sender: sender(1) }) })).toEqual(limits)
    expect(guesses.get({ userOperation: op({ sender: sender(1024) }) })).toEqual(limits)
  })
})
