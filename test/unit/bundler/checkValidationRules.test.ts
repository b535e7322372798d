import { type Address, encodeAbiParameters, type Hex, keccak256, pad, toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  checkValidationRules,
  type StakeInfo,
} from '../../../src/main/service/bundler/validation/checkValidationRules'
import {
  createValidationFrame,
  type ValidationFrame,
  type ValidationTrace,
} from '../../../src/main/service/bundler/validation/validationTracer'
import type { UserOperationV06 } from '../../../src/main/service/entryPoint'
import { entryPointV06 } from '../../../src/main/service/entryPoint'

const ENTRY_POINT = '0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789'
const SENDER = '0x1111111111111111111111111111111111111111'
const FACTORY = '0x2222222222222222222222222222222222222222'
const PAYMASTER = '0x3333333333333333333333333333333333333333'
const OTHER = '0x4444444444444444444444444444444444444444'
const VALIDATE_USER_OP = toFunctionSelector(
  'validateUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes),bytes32,uint256)',
)
const VALIDATE_PAYMASTER = toFunctionSelector(
  'validatePaymasterUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes),bytes32,uint256)',
)
const SENDER_CREATOR = '0x7fc98430eaedbb6070b35b39d798725049088348'
const CREATE_SENDER = toFunctionSelector('createSender(bytes)')
const UNSTAKED: StakeInfo = { stake: 0n, unstakeDelaySec: 0n }
const STAKED: StakeInfo = { stake: 10n ** 18n, unstakeDelaySec: 86_400n }

const op: UserOperationV06 = {
  sender: SENDER,
  nonce: 0n,
  initCode: '0x',
  callData: '0x',
  callGasLimit: 0n,
  verificationGasLimit: 0n,
  preVerificationGas: 0n,
  maxFeePerGas: 0n,
  maxPriorityFeePerGas: 0n,
  paymasterAndData: '0x',
  signature: '0x',
}

function frame(target: Address, selector: Hex, parts: Partial<ValidationFrame> = {}): ValidationFrame {
  return { ...createValidationFrame(target, selector), ...parts }
}

function check(frames: ValidationFrame[], options: Parameters<typeof violationsOf>[1] = {}) {
  return violationsOf(frames, options).map((v) => v.rule)
}

function violationsOf(
  frames: ValidationFrame[],
  options: {
    keccak?: Hex[]
    userOperation?: UserOperationV06
    stakes?: Partial<Record<'sender' | 'factory' | 'paymaster', StakeInfo>>
    context?: Hex
  } = {},
) {
  const trace: ValidationTrace = { frames, keccak: options.keccak ?? [], output: null }
  return checkValidationRules({
    trace,
    entities: entryPointV06.readEntities(options.userOperation ?? op),
    entryPoint: ENTRY_POINT,
    stakes: { sender: UNSTAKED, factory: UNSTAKED, paymaster: UNSTAKED, ...options.stakes },
    paymasterContext: options.context ?? '0x',
  })
}

const read = (slot: Hex) => ({ reads: { [slot]: true as const }, writes: {} })
const mappingSlot = (key: Address, index: bigint) => {
  const preimage = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, index])
  return { preimage, slot: keccak256(preimage) }
}

describe('checkValidationRules (ERC-7562)', () => {
  it('passes an account that reads its own storage and a mapping entry keyed by itself elsewhere', () => {
    const { preimage, slot } = mappingSlot(SENDER, 3n)
    const rules = check(
      [frame(SENDER, VALIDATE_USER_OP, { access: { [SENDER]: read(pad('0x01')), [OTHER]: read(slot) } })],
      { keccak: [preimage] },
    )
    expect(rules).toEqual([])
  })

  it('flags banned opcodes, and BALANCE only for an unstaked entity', () => {
    const frames = [frame(SENDER, VALIDATE_USER_OP, { opcodes: { TIMESTAMP: 1, GAS: 2, BALANCE: 1 } })]
    expect(check(frames)).toEqual(['OP-011', 'OP-011', 'OP-080'])
    expect(check(frames, { stakes: { sender: STAKED } })).toEqual(['OP-011', 'OP-011'])
  })

  it('flags reading storage of another contract unless staked, and writing it always', () => {
    const frames = [frame(SENDER, VALIDATE_USER_OP, { access: { [OTHER]: read(pad('0x00')) } })]
    expect(check(frames)).toEqual(['STO-033'])
    expect(check(frames, { stakes: { sender: STAKED } })).toEqual([])
    const write = [
      frame(SENDER, VALIDATE_USER_OP, {
        access: { [OTHER]: { reads: {}, writes: { [pad('0x00')]: true } } },
      }),
    ]
    expect(check(write, { stakes: { sender: STAKED } })).toEqual(['STO-033'])
  })

  it('lets a paymaster use its own storage only when staked, and a context only when staked', () => {
    const paymasterOp = { ...op, paymasterAndData: PAYMASTER as Hex }
    const frames = [frame(PAYMASTER, VALIDATE_PAYMASTER, { access: { [PAYMASTER]: read(pad('0x05')) } })]
    expect(check(frames, { userOperation: paymasterOp, context: '0x1234' })).toEqual(['STO-031', 'EREP-050'])
    expect(
      check(frames, { userOperation: paymasterOp, context: '0x1234', stakes: { paymaster: STAKED } }),
    ).toEqual([])
  })

  it('allows CREATE2 once in the factory, and the sender storage and its EntryPoint deposit while it is deployed', () => {
    const deployOp = { ...op, initCode: FACTORY as Hex }
    const deposit = mappingSlot(SENDER, 0n)
    const factory = frame(SENDER_CREATOR, CREATE_SENDER, {
      creates: [{ opcode: 'CREATE2', from: FACTORY, to: SENDER }],
      access: { [SENDER]: { reads: {}, writes: { [pad('0x00')]: true } } },
    })
    const account = frame(SENDER, VALIDATE_USER_OP, {
      access: { [ENTRY_POINT]: { reads: {}, writes: { [deposit.slot]: true } } },
    })
    expect(check([factory, account], { userOperation: deployOp, keccak: [deposit.preimage] })).toEqual([])
    const create2 = { opcode: 'CREATE2', from: SENDER, to: OTHER } as const
    expect(check([frame(SENDER, VALIDATE_USER_OP, { creates: [create2] })])).toEqual(['OP-031'])
  })

  it('needs a staked factory for sender-associated storage in other contracts during deployment (STO-022)', () => {
    const deployOp = { ...op, initCode: FACTORY as Hex }
    const { preimage, slot } = mappingSlot(SENDER, 1n)
    const frames = [frame(SENDER, VALIDATE_USER_OP, { access: { [OTHER]: read(slot) } })]
    expect(check(frames, { userOperation: deployOp, keccak: [preimage] })).toEqual(['STO-022'])
    expect(
      check(frames, { userOperation: deployOp, keccak: [preimage], stakes: { factory: STAKED } }),
    ).toEqual([])
  })

  it('flags out of gas, calls to code-less addresses, EntryPoint calls other than depositTo, and value calls', () => {
    const frames = [
      frame(SENDER, VALIDATE_USER_OP, {
        outOfGas: true,
        codeless: { [OTHER]: 'CALL' },
        calls: [
          {
            opcode: 'CALL',
            from: SENDER,
            to: ENTRY_POINT,
            selector: toFunctionSelector('depositTo(address)'),
            withValue: true,
          },
          { opcode: 'CALL', from: SENDER, to: ENTRY_POINT, selector: '0x', withValue: true },
          {
            opcode: 'STATICCALL',
            from: SENDER,
            to: ENTRY_POINT,
            selector: toFunctionSelector('getNonce(address,uint192)'),
            withValue: false,
          },
          { opcode: 'CALL', from: SENDER, to: OTHER, selector: '0x', withValue: true },
        ],
      }),
    ]
    expect(check(frames)).toEqual(['OP-020', 'OP-041', 'OP-054', 'OP-061'])
  })

  it("names the opcode in the reference bundler's words, and says when only a staked entity may use it", () => {
    const frames = [frame(SENDER, VALIDATE_USER_OP, { opcodes: { DIFFICULTY: 1, SELFBALANCE: 1 } })]
    const messages = violationsOf(frames).map((v) => v.message)
    expect(messages[0]).toContain('account uses banned opcode: DIFFICULTY')
    expect(messages[1]).toContain('unstaked account uses banned opcode: SELFBALANCE')
  })

  it("takes the EntryPoint fallback called by the sender's constructor, in the factory's frame, for the sender's (OP-053)", () => {
    const deployOp = { ...op, initCode: FACTORY as Hex }
    const fallbackFrom = (from: Address) =>
      frame(SENDER_CREATOR, CREATE_SENDER, {
        creates: [{ opcode: 'CREATE2', from: FACTORY, to: SENDER }],
        calls: [{ opcode: 'CALL', from, to: ENTRY_POINT, selector: '0x', withValue: false }],
        access: { [ENTRY_POINT]: { reads: {}, writes: { [pad('0x07')]: true } } },
      })
    expect(check([fallbackFrom(SENDER)], { userOperation: deployOp })).toEqual([])
    expect(check([fallbackFrom(FACTORY)], { userOperation: deployOp })).toEqual(['OP-054'])
  })

  it("leaves the EntryPoint's own storage to the calls into it: value sent to its fallback by the account's helper (OP-053)", () => {
    const frames = [
      frame(SENDER, VALIDATE_USER_OP, {
        calls: [{ opcode: 'CALL', from: OTHER, to: ENTRY_POINT, selector: '0x', withValue: true }],
        access: { [ENTRY_POINT]: { reads: { [pad('0x09')]: true }, writes: { [pad('0x09')]: true } } },
      }),
    ]
    expect(check(frames)).toEqual([])
  })

  it('flags EXTCODE* on the EntryPoint (OP-054) and on an address without code (OP-041)', () => {
    const frames = [frame(SENDER, VALIDATE_USER_OP, { entryPointCode: ['EXTCODESIZE', 'EXTCODEHASH'] })]
    expect(check(frames)).toEqual(['OP-054', 'OP-054'])
    const probe = [frame(SENDER, VALIDATE_USER_OP, { codeless: { [OTHER]: 'EXTCODESIZE' } })]
    expect(check(probe)).toEqual(['OP-041'])
    // OP-042: the factory may probe the sender it is about to deploy.
    const deployOp = { ...op, initCode: FACTORY as Hex }
    const factory = frame(SENDER_CREATOR, CREATE_SENDER, { codeless: { [SENDER]: 'EXTCODESIZE' } })
    expect(check([factory], { userOperation: deployOp })).toEqual([])
  })

  it('lets the new account CREATE with any factory (OP-032), and CREATE2 or use its factory with a staked one (EREP-060)', () => {
    const deployOp = { ...op, initCode: FACTORY as Hex }
    const account = (...creates: ValidationFrame['creates']) => frame(SENDER, VALIDATE_USER_OP, { creates })
    const create = { opcode: 'CREATE', from: SENDER, to: OTHER } as const
    const create2 = { opcode: 'CREATE2', from: SENDER, to: OTHER } as const
    const nested = { opcode: 'CREATE', from: OTHER, to: PAYMASTER } as const
    const staked = { userOperation: deployOp, stakes: { factory: STAKED } }
    expect(check([account(create)], { userOperation: deployOp })).toEqual([])
    expect(check([account(create2)], { userOperation: deployOp })).toEqual(['OP-031'])
    expect(check([account(create)], staked)).toEqual([])
    expect(check([account(create2)], staked)).toEqual([])
    expect(check([account(create, nested)], staked)).toEqual(['OP-011'])
    // No factory: an existing account may not create at all.
    expect(check([account(create)])).toEqual(['OP-011'])
    // The factory's frame: the sender, once, and more only with a stake.
    const factory = (...creates: ValidationFrame['creates']) =>
      frame(SENDER_CREATOR, CREATE_SENDER, { creates })
    const sender = { opcode: 'CREATE2', from: FACTORY, to: SENDER } as const
    const another = { opcode: 'CREATE2', from: FACTORY, to: OTHER } as const
    const messages = violationsOf([factory(sender, another)], { userOperation: deployOp }).map(
      (v) => v.message,
    )
    expect(messages).toEqual([expect.stringContaining('factory uses banned opcode: CREATE2')])
    expect(check([factory(sender, another)], staked)).toEqual([])
  })

  it("lets a staked entity read the deploying sender's associated storage even with an unstaked factory (STO-033 over STO-022)", () => {
    const deployOp = { ...op, initCode: FACTORY as Hex, paymasterAndData: PAYMASTER as Hex }
    const { preimage, slot } = mappingSlot(SENDER, 1n)
    const reads = [frame(PAYMASTER, VALIDATE_PAYMASTER, { access: { [OTHER]: read(slot) } })]
    const options = { userOperation: deployOp, keccak: [preimage] }
    expect(check(reads, options)).toEqual(['STO-022'])
    expect(check(reads, { ...options, stakes: { paymaster: STAKED } })).toEqual([])
    const writes = [
      frame(PAYMASTER, VALIDATE_PAYMASTER, { access: { [OTHER]: { reads: {}, writes: { [slot]: true } } } }),
    ]
    expect(check(writes, { ...options, stakes: { paymaster: STAKED } })).toEqual(['STO-022'])
    expect(check(writes, { ...options, stakes: { factory: STAKED } })).toEqual([])
  })
})
