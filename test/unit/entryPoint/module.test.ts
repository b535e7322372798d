import type { Address, Hex } from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import type { Chain } from '../../../src/main/service/chain'
import { allEntryPoints, type EntryPointModule } from '../../../src/main/service/entryPoint'
import type { WireUserOperation } from '../../../src/main/service/entryPoint/types'
import { RpcError } from '../../../src/main/service/errors'

const CHAIN_ID = 1337
const BENEFICIARY: Address = '0x00000000000000000000000000000000000000be'
const SENDER: Address = '0x1111111111111111111111111111111111111111'
const FACTORY: Address = '0x2222222222222222222222222222222222222222'
const PAYMASTER: Address = '0x3333333333333333333333333333333333333333'
const SIGNATURE: Hex = `0x${'ab'.repeat(65)}`

/** One row per EntryPoint version: a fixed operation in its wire form, and what the module must say about it. */
type ConformanceRow = {
  module: EntryPointModule
  /** A complete operation that deploys its account and names a paymaster (every optional group present). */
  wire: WireUserOperation
  /** Its userOpHash on chain 1337 at the module's address. */
  userOpHash: Hex
  preVerificationGas: bigint
  /** Width of the gas fields the EntryPoint packs (checkFields refuses a wider value). */
  gasFieldBits: bigint
  /** viem computes this version's hash too (cross-checked). */
  viemHashes: boolean
}

const gas = {
  callGasLimit: '0x30d40',
  verificationGasLimit: '0x186a0',
  preVerificationGas: '0xc350',
  maxFeePerGas: '0x3b9aca00',
  maxPriorityFeePerGas: '0x5f5e100',
}

const packedWire: WireUserOperation = {
  sender: SENDER,
  nonce: '0x7',
  factory: FACTORY,
  factoryData: '0xdeadbeef',
  callData: '0xb61d27f6',
  ...gas,
  paymaster: PAYMASTER,
  paymasterVerificationGasLimit: '0xea60',
  paymasterPostOpGasLimit: '0x7530',
  paymasterData: '0x0102030405',
  signature: SIGNATURE,
}

const rows: ConformanceRow[] = [
  {
    module: allEntryPoints.find((m) => m.version === '0.6') as EntryPointModule,
    wire: {
      sender: SENDER,
      nonce: '0x7',
      initCode: `${FACTORY}deadbeef`,
      callData: '0xb61d27f6',
      ...gas,
      paymasterAndData: `${PAYMASTER}0102030405`,
      signature: SIGNATURE,
    },
    userOpHash: '0x681e391e78e7d6129bda7c22564217f8819f917501148dbafc07031e0df80139',
    preVerificationGas: 44_432n,
    gasFieldBits: 120n,
    viemHashes: true,
  },
  {
    module: allEntryPoints.find((m) => m.version === '0.7') as EntryPointModule,
    wire: packedWire,
    userOpHash: '0x4e10640021c3d5b3631bd36bb41b9ed11bd218c75caf333e2e7e103eccff64bd',
    preVerificationGas: 44_384n,
    gasFieldBits: 128n,
    viemHashes: true,
  },
  {
    module: allEntryPoints.find((m) => m.version === '0.8') as EntryPointModule,
    wire: packedWire,
    userOpHash: '0xe2120e5077e7071e25d453ca2d8d89ed3018a9b67f835d3eba58c360a57b206a',
    preVerificationGas: 44_384n,
    gasFieldBits: 128n,
    viemHashes: true,
  },
  {
    module: allEntryPoints.find((m) => m.version === '0.9') as EntryPointModule,
    // v0.8's fields and the paymaster's own signature, packed after paymasterData and left out of the hash.
    wire: { ...packedWire, paymasterSignature: `0x${'cd'.repeat(65)}` },
    // The release EntryPoint's own getUserOpHash (0x4337…D009 deployed on a chain 1337 anvil), the same for any
    // paymasterSignature.
    userOpHash: '0x2c1b3be7aeaa4970627f8b5d3bb66c6630ba54b04b8a38d183fe84e3c55b4a83',
    preVerificationGas: 45_680n,
    gasFieldBits: 128n,
    viemHashes: true,
  },
]

it('the conformance suite has a row for every EntryPoint module', () => {
  expect(rows.map((row) => row.module)).toEqual([...allEntryPoints])
})

describe.each(rows.map((row) => [`v${row.module.version}`, row] as const))(
  'EntryPoint %s module',
  (_, row) => {
    const { module } = row
    const op = module.userOperationSchema.parse(row.wire)

    it('computes the known userOpHash of a fixed operation', () => {
      expect(module.computeUserOpHash(op, CHAIN_ID)).toBe(row.userOpHash)
    })

    it.runIf(row.viemHashes)("computes the userOpHash viem's getUserOperationHash computes", () => {
      expect(module.computeUserOpHash(op, CHAIN_ID)).toBe(
        getUserOperationHash({
          chainId: CHAIN_ID,
          entryPointAddress: module.address,
          entryPointVersion: module.version,
          // viem reads an absent factory / paymaster as undefined, where v0.7's domain form has null.
          userOperation: Object.fromEntries(
            Object.entries(op).map(([key, value]) => [key, value ?? undefined]),
          ) as never,
        }),
      )
    })

    it('reads a stored wire operation back to the same operation (toWire, fromWire)', () => {
      const wire = module.toWire(op)
      expect(wire).toEqual(row.wire)
      expect(module.fromWire(wire)).toEqual(op)
    })

    it('names the entities of the operation (sender, factory, paymaster), lowercase', () => {
      expect(module.readEntities(op)).toEqual({
        sender: SENDER.toLowerCase(),
        factory: FACTORY.toLowerCase(),
        paymaster: PAYMASTER.toLowerCase(),
      })
      expect(module.deploysAccount(op)).toBe(true)
    })

    it('accepts gas fields up to their packed width and refuses one bit more with -32602', () => {
      const widest = (1n << row.gasFieldBits) - 1n
      expect(() => module.checkFields({ ...op, callGasLimit: widest })).not.toThrow()
      const error = (() => {
        try {
          module.checkFields({ ...op, callGasLimit: widest + 1n })
        } catch (err) {
          return err
        }
      })()
      expect(error).toBeInstanceOf(RpcError)
      expect((error as RpcError).rpcCode).toBe(-32602)
      expect((error as RpcError).message).toMatch(/callGasLimit/)
    })

    it('decodes the handleOps calldata it encodes back to the same operations', async () => {
      const second = { ...op, nonce: op.nonce + 1n }
      const input = module.encodeHandleOps([op, second], BENEFICIARY)
      expect(await module.decodeBundle({} as Chain, { input })).toEqual([op, second])
    })

    it('breaks its pre-verification gas into parts that add up to it (rounded up)', () => {
      const { total, parts } = module.breakDownPreVerificationGas(op)
      expect(total).toBe(row.preVerificationGas)
      expect(Math.ceil(parts.reduce((sum, part) => sum + part.gas, 0))).toBe(Number(total))
      expect(parts.every((part) => part.name.length > 0)).toBe(true)
    })

    it('charges the known pre-verification gas for the fixed operation', () => {
      expect(module.calculatePreVerificationGas(op)).toBe(row.preVerificationGas)
      // What admission asks leaves the paymaster's fields out (Biconomy's flow estimates without them): lower.
      expect(module.minimumPreVerificationGas(op)).toBeLessThan(row.preVerificationGas)
    })

    it('asks no more preVerificationGas at admission than its estimate gave, whatever the signature and limits hold', () => {
      const signed = {
        ...op,
        signature: `0x${'ab'.repeat(65)}` as const,
        callGasLimit: 1_000_000n,
        verificationGasLimit: 300_000n,
      }
      expect(module.minimumPreVerificationGas(signed)).toBeLessThanOrEqual(
        module.calculatePreVerificationGas({ ...op, signature: `0x${'00'.repeat(65)}` }),
      )
    })
  },
)
