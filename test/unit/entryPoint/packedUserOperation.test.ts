import { encodeAbiParameters, encodeFunctionData, type Hex, parseAbiParameters } from 'viem'
import { entryPoint07Address, entryPoint08Address, getUserOperationHash } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { entryPointV07, entryPointV08 } from '../../../src/main/service/entryPoint'
import {
  encodeHandleOpsV07,
  encodeSimulateHandleOpV07,
  encodeSimulateValidationV07,
  entryPointSimulationsAbi,
} from '../../../src/main/service/entryPoint/v07/encodeEntryPointCalls'
import { encodePackedUserOperationTuple } from '../../../src/main/service/entryPoint/v07/encodePackedUserOperationTuple'
import {
  packUserOperation,
  unpackUserOperation,
} from '../../../src/main/service/entryPoint/v07/packUserOperation'
import {
  EIP7702_FACTORY_MARKER,
  type UserOperationV07,
  UserOperationV07Schema,
} from '../../../src/main/service/entryPoint/v07/userOperation'

const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

const base: UserOperationV07 = {
  sender: '0x1111111111111111111111111111111111111111',
  nonce: (7n << 64n) | 3n,
  factory: '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985',
  factoryData: '0x5fbfb9cf000000000000000000000000aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  callData: '0xb61d27f6',
  callGasLimit: 123_456n,
  verificationGasLimit: 654_321n,
  preVerificationGas: 50_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
  paymaster: '0x2222222222222222222222222222222222222222',
  paymasterVerificationGasLimit: 100_000n,
  paymasterPostOpGasLimit: 40_000n,
  paymasterData: '0xdeadbeef',
  signature: `0x${'ab'.repeat(65)}`,
  eip7702Auth: null,
}

/** The same operation in viem's form (getUserOperationHash takes it). */
const toViem = (op: UserOperationV07) => ({
  sender: op.sender,
  nonce: op.nonce,
  factory: op.factory ?? undefined,
  factoryData: op.factory ? op.factoryData : undefined,
  callData: op.callData,
  callGasLimit: op.callGasLimit,
  verificationGasLimit: op.verificationGasLimit,
  preVerificationGas: op.preVerificationGas,
  maxFeePerGas: op.maxFeePerGas,
  maxPriorityFeePerGas: op.maxPriorityFeePerGas,
  paymaster: op.paymaster ?? undefined,
  paymasterVerificationGasLimit: op.paymaster ? op.paymasterVerificationGasLimit : undefined,
  paymasterPostOpGasLimit: op.paymaster ? op.paymasterPostOpGasLimit : undefined,
  paymasterData: op.paymaster ? op.paymasterData : undefined,
  signature: op.signature,
})

describe('PackedUserOperation (EntryPoint v0.7 / v0.8)', () => {
  it('packs gas limits and fees into two words and unpacks back to the same operation', () => {
    const packed = packUserOperation(base)
    expect(packed.accountGasLimits).toBe(
      `0x${654_321n.toString(16).padStart(32, '0')}${123_456n.toString(16).padStart(32, '0')}`,
    )
    expect(packed.initCode.toLowerCase()).toBe(`${base.factory?.toLowerCase()}${base.factoryData.slice(2)}`)
    expect(packed.paymasterAndData.length).toBe(2 + 2 * (20 + 16 + 16 + 4))
    expect(unpackUserOperation(packed)).toEqual(base)
    const bare = {
      ...base,
      factory: null,
      factoryData: '0x' as Hex,
      paymaster: null,
      paymasterVerificationGasLimit: 0n,
      paymasterPostOpGasLimit: 0n,
      paymasterData: '0x' as Hex,
    }
    expect(packUserOperation(bare).initCode).toBe('0x')
    expect(unpackUserOperation(packUserOperation(bare))).toEqual(bare)
  })

  it("encodes the tuple byte for byte as viem's ABI encoder does", () => {
    const packed = packUserOperation(base)
    const viem = encodeAbiParameters(
      parseAbiParameters('(address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)'),
      [
        [
          packed.sender,
          packed.nonce,
          packed.initCode,
          packed.callData,
          packed.accountGasLimits,
          packed.preVerificationGas,
          packed.gasFees,
          packed.paymasterAndData,
          packed.signature,
        ],
      ],
    )
    // viem's encoding starts with the tuple's offset word.
    expect(`0x${'0'.repeat(62)}20${encodePackedUserOperationTuple(packed)}`).toBe(viem)
  })

  it("encodes handleOps, simulateValidation and simulateHandleOp calldata as viem's encodeFunctionData does", () => {
    const packed = packUserOperation(base)
    const other = packUserOperation({
      ...base,
      callData: '0x',
      paymaster: null,
      paymasterVerificationGasLimit: 0n,
      paymasterPostOpGasLimit: 0n,
      paymasterData: '0x',
    })
    const beneficiary = owner.address
    expect(encodeHandleOpsV07([packed, other], beneficiary)).toBe(
      encodeFunctionData({
        abi: entryPointSimulationsAbi,
        functionName: 'handleOps',
        args: [[packed, other], beneficiary],
      }),
    )
    expect(encodeHandleOpsV07([], beneficiary)).toBe(
      encodeFunctionData({
        abi: entryPointSimulationsAbi,
        functionName: 'handleOps',
        args: [[], beneficiary],
      }),
    )
    expect(encodeSimulateValidationV07(packed)).toBe(
      encodeFunctionData({
        abi: entryPointSimulationsAbi,
        functionName: 'simulateValidation',
        args: [packed],
      }),
    )
    expect(encodeSimulateHandleOpV07(packed, beneficiary, '0x1234')).toBe(
      encodeFunctionData({
        abi: entryPointSimulationsAbi,
        functionName: 'simulateHandleOp',
        args: [packed, beneficiary, '0x1234'],
      }),
    )
  })

  it("computes v0.7's userOpHash as viem's getUserOperationHash does", () => {
    for (const op of [
      base,
      {
        ...base,
        paymaster: null,
        paymasterVerificationGasLimit: 0n,
        paymasterPostOpGasLimit: 0n,
        paymasterData: '0x' as Hex,
      },
    ]) {
      expect(entryPointV07.computeUserOpHash(op, 31337)).toBe(
        getUserOperationHash({
          userOperation: toViem(op),
          entryPointAddress: entryPoint07Address,
          entryPointVersion: '0.7',
          chainId: 31337,
        }),
      )
    }
  })

  it("computes v0.8's EIP-712 userOpHash as viem does, EIP-7702 operations hashed with their delegate", async () => {
    expect(entryPointV08.computeUserOpHash(base, 31337)).toBe(
      getUserOperationHash({
        userOperation: toViem(base),
        entryPointAddress: entryPoint08Address,
        entryPointVersion: '0.8',
        chainId: 31337,
      }),
    )
    const authorization = await owner.signAuthorization({
      address: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
      chainId: 31337,
      nonce: 4,
    })
    const op7702: UserOperationV07 = {
      ...base,
      sender: owner.address,
      factory: EIP7702_FACTORY_MARKER,
      factoryData: '0x',
      eip7702Auth: {
        address: authorization.address,
        chainId: 31337n,
        nonce: 4n,
        yParity: authorization.yParity ?? 0,
        r: authorization.r,
        s: authorization.s,
      },
    }
    expect(entryPointV08.computeUserOpHash(op7702, 31337)).toBe(
      getUserOperationHash({
        userOperation: { ...toViem(op7702), factory: '0x7702', factoryData: '0x', authorization },
        entryPointAddress: entryPoint08Address,
        entryPointVersion: '0.8',
        chainId: 31337,
      }),
    )
  })

  it("takes an eip7702Auth on v0.7 and hashes the operation as v0.7 does, as viem and ZeroDev/Biconomy's v0.7 accounts sign it (no 0x7702 initCode rule)", async () => {
    const authorization = await owner.signAuthorization({
      address: '0xd6CEDDe84be40893d153Be9d467CD6aD37875b28',
      chainId: 31337,
      nonce: 0,
    })
    const op7702: UserOperationV07 = {
      ...base,
      sender: owner.address,
      factory: null,
      factoryData: '0x',
      eip7702Auth: {
        address: authorization.address,
        chainId: 31337n,
        nonce: 0n,
        yParity: authorization.yParity ?? 0,
        r: authorization.r,
        s: authorization.s,
      },
    }
    const wire = entryPointV07.toWire(op7702)
    expect(wire.eip7702Auth).toMatchObject({
      address: authorization.address,
      nonce: '0x0',
      chainId: '0x7a69',
    })
    expect(entryPointV07.fromWire(wire)).toEqual(op7702)
    expect(entryPointV07.partialUserOperationSchema.safeParse(wire).success).toBe(true)
    expect(entryPointV07.computeUserOpHash(op7702, 31337)).toBe(
      getUserOperationHash({
        userOperation: { ...toViem(op7702), authorization },
        entryPointAddress: entryPoint07Address,
        entryPointVersion: '0.7',
        chainId: 31337,
      }),
    )
    // The authorization is outside the v0.7 hash: the same operation without it hashes the same.
    expect(entryPointV07.computeUserOpHash({ ...op7702, eip7702Auth: null }, 31337)).toBe(
      entryPointV07.computeUserOpHash(op7702, 31337),
    )
  })

  it('refuses on v0.7 the 0x7702 factory marker (v0.7 would call it as a factory), and on every version a factory beside an eip7702Auth (AA10 once the authorization gave the account code)', () => {
    const eip7702Auth = {
      address: '0xd6CEDDe84be40893d153Be9d467CD6aD37875b28',
      chainId: '0x7a69',
      nonce: '0x0',
      yParity: '0x0',
      r: `0x${'11'.repeat(32)}`,
      s: `0x${'22'.repeat(32)}`,
    }
    const wire = { ...entryPointV07.toWire(base), eip7702Auth }
    const issues = (
      schema: { safeParse: (v: unknown) => { error?: { issues: unknown[] } } },
      value: unknown,
    ) =>
      schema.safeParse(value).error?.issues.map((i) => {
        const { path, message } = i as { path: unknown[]; message: string }
        return `${path.join('.')}: ${message}`
      })
    expect(
      issues(entryPointV07.userOperationSchema, { ...wire, factory: '0x7702', factoryData: '0x' }),
    ).toEqual([
      "factory: EntryPoint v0.7 takes no 0x7702 factory (v0.8 does); an EIP-7702 account's operation names no factory here",
    ])
    expect(issues(entryPointV07.partialUserOperationSchema, wire)).toEqual([
      'factory: an operation with an eip7702Auth names no factory: the authorization gives the account its code before the EntryPoint runs, which then refuses a factory (AA10 sender already constructed)',
    ])
    expect(issues(entryPointV08.userOperationSchema, wire)).toEqual([
      'factory: an operation with an eip7702Auth names no factory (or the 0x7702 marker): the authorization gives the account its code before the EntryPoint runs, which then refuses a factory (AA10 sender already constructed)',
    ])
    expect(entryPointV08.userOperationSchema.safeParse({ ...wire, factory: '0x7702' }).success).toBe(true)
  })

  it('parses the ERC-7769 wire form: the 0x7702 marker, optional groups, and refuses a paymaster field without a paymaster', () => {
    const wire = entryPointV08.toWire({ ...base, factory: EIP7702_FACTORY_MARKER, factoryData: '0x' })
    expect(wire.factory).toBe('0x7702')
    const parsed = UserOperationV07Schema.safeParse({ ...entryPointV07.toWire(base), paymaster: undefined })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.path).toEqual(['paymasterData'])
    expect(entryPointV07.fromWire(entryPointV07.toWire(base))).toEqual(base)
    expect(entryPointV07.readEntities(base)).toEqual({
      sender: base.sender.toLowerCase(),
      factory: base.factory?.toLowerCase(),
      paymaster: base.paymaster?.toLowerCase(),
    })
    expect(entryPointV08.readEntities({ ...base, factory: EIP7702_FACTORY_MARKER }).factory).toBeNull()
  })
})
