import { getAddress, type Hash, type Hex, numberToHex } from 'viem'
import { z } from 'zod'
import { computeUserOpHash } from '../../chain/entryPoint/getUserOpHash'
import type { Chain } from '../../chain/types'
import { parseInput, requiredAddress } from '../../dashboard/fields'
import type { WireOperation } from './types'

const hex = (field: string) =>
  z
    .string({ error: `${field} must be a 0x-prefixed hex string` })
    .regex(/^0x[0-9a-fA-F]*$/, { error: `${field} must be a 0x-prefixed hex string` })
const quantity = (field: string) =>
  z
    .union([z.string(), z.number()], { error: `${field} must be a hex or decimal quantity` })
    .transform((v, ctx) => {
      const text = String(v).trim()
      if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a hex or decimal quantity` })
        return z.NEVER
      }
      return numberToHex(BigInt(text))
    })

const WireOpSchema = z.object(
  {
    sender: requiredAddress('sender'),
    nonce: quantity('nonce'),
    initCode: hex('initCode'),
    callData: hex('callData'),
    callGasLimit: quantity('callGasLimit'),
    verificationGasLimit: quantity('verificationGasLimit'),
    preVerificationGas: quantity('preVerificationGas'),
    maxFeePerGas: quantity('maxFeePerGas'),
    maxPriorityFeePerGas: quantity('maxPriorityFeePerGas'),
    paymasterAndData: hex('paymasterAndData'),
    signature: hex('signature').optional(),
  },
  { error: 'userOperation must be an object with every v0.6 field' },
)

/** A v0.6 wire operation parsed, with its userOpHash (EntryPoint v0.6 of this chain). */
export function readOperationV06(chain: Chain, input: unknown): { wire: WireOperation; userOpHash: Hash } {
  const op = parseInput(WireOpSchema, input)
  const userOpHash = computeUserOpHash(
    {
      sender: getAddress(op.sender),
      nonce: BigInt(op.nonce),
      initCode: op.initCode as Hex,
      callData: op.callData as Hex,
      callGasLimit: BigInt(op.callGasLimit),
      verificationGasLimit: BigInt(op.verificationGasLimit),
      preVerificationGas: BigInt(op.preVerificationGas),
      maxFeePerGas: BigInt(op.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
      paymasterAndData: op.paymasterAndData as Hex,
      signature: '0x',
    },
    chain.chainId,
    chain.addresses.entryPoint,
  )
  const { signature: _signature, ...wire } = { ...op, sender: getAddress(op.sender) }
  return { wire, userOpHash }
}
