import { randomBytes } from 'node:crypto'
import {
  type Address,
  decodeErrorResult,
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  type Hex,
  keccak256,
} from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { entryPointNonceSlot } from '../../../../src/main/service/bundler/validation/entryPointNonceSlot'
import { entryPointAbi } from '../../../../src/main/service/chain/abis/entryPoint'
import { keccak256Hex } from '../../../../src/main/service/chain/keccak256'
import { computeUserOpHash } from '../../../../src/main/service/entryPoint/v06/computeUserOpHash'
import { decodeEntryPointError } from '../../../../src/main/service/entryPoint/v06/decodeEntryPointError'
import {
  encodeHandleOps,
  encodeSimulateHandleOp,
  encodeSimulateValidation,
  encodeUserOperationTuple,
} from '../../../../src/main/service/entryPoint/v06/encodeEntryPointCalls'
import type { UserOperationV06 } from '../../../../src/main/service/entryPoint/v06/userOperation'

const ENTRY_POINT: Address = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}` as Hex
const uint = (bytes: number) => BigInt(hex(bytes))

/** Operations with every field shape: empty and odd-sized bytes (not whole words), zero and 256-bit numbers. */
function sampleOperations(): UserOperationV06[] {
  const ops: UserOperationV06[] = [
    {
      sender: '0x6FA2D1eD49414fF8118292cb7e451d524638A0A7',
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
    },
  ]
  for (const size of [1, 20, 31, 32, 33, 64, 65, 300, 1000]) {
    ops.push({
      sender: hex(20) as Address,
      nonce: uint(32),
      initCode: size > 20 ? hex(size) : '0x',
      callData: hex(size),
      callGasLimit: uint(4),
      verificationGasLimit: uint(8),
      preVerificationGas: uint(3),
      maxFeePerGas: uint(16),
      maxPriorityFeePerGas: (1n << 256n) - 1n,
      paymasterAndData: size % 2 === 0 ? hex(size + 20) : '0x',
      signature: hex(size === 1 ? 65 : size),
    })
  }
  return ops
}

describe('EntryPoint calldata written out by hand', () => {
  it('is byte for byte what viem encodes: simulateValidation, simulateHandleOp, handleOps and the tuple', () => {
    const ops = sampleOperations()
    for (const op of ops) {
      expect(encodeSimulateValidation(op)).toBe(
        encodeFunctionData({ abi: entryPointAbi, functionName: 'simulateValidation', args: [op] }),
      )
      for (const [target, data] of [
        ['0x0000000000000000000000000000000000000000', '0x'],
        [hex(20), hex(37)],
      ] as [Address, Hex][]) {
        expect(encodeSimulateHandleOp(op, target, data)).toBe(
          encodeFunctionData({
            abi: entryPointAbi,
            functionName: 'simulateHandleOp',
            args: [op, target, data],
          }),
        )
      }
      const tupleAbi = entryPointAbi.find((x) => x.type === 'function' && x.name === 'simulateValidation')
        ?.inputs as readonly [{ type: 'tuple' }]
      expect(`0x${'0'.repeat(62)}20${encodeUserOperationTuple(op)}`).toBe(encodeAbiParameters(tupleAbi, [op]))
    }
    const beneficiary = hex(20) as Address
    for (const bundle of [[], ops.slice(0, 1), ops]) {
      expect(encodeHandleOps(bundle, beneficiary)).toBe(
        encodeFunctionData({ abi: entryPointAbi, functionName: 'handleOps', args: [bundle, beneficiary] }),
      )
    }
  })

  it('computes the v0.6 userOpHash as viem does', () => {
    for (const op of sampleOperations()) {
      for (const chainId of [1, 31337, 11155111]) {
        expect(computeUserOpHash(op, chainId, ENTRY_POINT)).toBe(
          getUserOperationHash({
            chainId,
            entryPointAddress: ENTRY_POINT,
            entryPointVersion: '0.6',
            userOperation: op,
          }),
        )
      }
    }
  })

  it('finds the EntryPoint nonce slot of a sender and key as the Solidity mapping layout says', () => {
    const sender = hex(20) as Address
    for (const key of [0n, 1n, (1n << 192n) - 1n]) {
      const outer = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [sender, 1n]))
      expect(entryPointNonceSlot(sender, key)).toBe(
        keccak256(encodeAbiParameters([{ type: 'uint192' }, { type: 'bytes32' }], [key, outer])),
      )
    }
  })

  it('hashes with keccak256 as viem does', () => {
    for (const size of [0, 1, 32, 135, 136, 137, 1000, 5000]) {
      const data = hex(size)
      expect(keccak256Hex(data)).toBe(keccak256(data))
    }
  })
})

describe('decodeEntryPointError', () => {
  it('decodes the EntryPoint reverts as viem decodeErrorResult does, other data through viem', () => {
    const stake = { stake: 5n, unstakeDelaySec: 86_400n }
    const reverts: Hex[] = [
      encodeErrorResult({
        abi: entryPointAbi,
        errorName: 'FailedOp',
        args: [3n, 'AA25 invalid account nonce'],
      }),
      encodeErrorResult({
        abi: entryPointAbi,
        errorName: 'ValidationResult',
        args: [
          {
            preOpGas: 1n,
            prefund: 2n,
            sigFailed: true,
            validAfter: 3,
            validUntil: 4,
            paymasterContext: '0xabcd',
          },
          stake,
          stake,
          stake,
        ],
      }),
      encodeErrorResult({
        abi: entryPointAbi,
        errorName: 'ExecutionResult',
        args: [10n, 20n, 0, 0, false, '0x08c379a0'],
      }),
      encodeErrorResult({
        abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string', name: 'message' }] }],
        errorName: 'Error',
        args: ['plain revert'],
      }),
    ]
    for (const data of reverts) {
      expect(decodeEntryPointError(data)).toEqual(decodeErrorResult({ abi: entryPointAbi, data }))
    }
    expect(() => decodeEntryPointError('0xdeadbeef')).toThrow()
  })
})
