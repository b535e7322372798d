import { getAddress, type Hash, type Hex, numberToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import type { Chain } from '../../chain/types'
import type { UserOperationV06 } from '../../entryPoint'
import { entryPointV06 } from '../../entryPoint'
import { parseInput, requiredAddress } from '../../schemas/inputFields'
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

/** A v0.6 wire operation parsed (its wire form and its fields as numbers), with its userOpHash (EntryPoint v0.6 of this chain). */
export function readOperationV06(
  chain: Chain,
  input: unknown,
): { wire: WireOperation; op: UserOperationV06; userOpHash: Hash } {
  const parsed = parseInput(WireOpSchema, input)
  const op: UserOperationV06 = {
    sender: getAddress(parsed.sender),
    nonce: BigInt(parsed.nonce),
    initCode: parsed.initCode as Hex,
    callData: parsed.callData as Hex,
    callGasLimit: BigInt(parsed.callGasLimit),
    verificationGasLimit: BigInt(parsed.verificationGasLimit),
    preVerificationGas: BigInt(parsed.preVerificationGas),
    maxFeePerGas: BigInt(parsed.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(parsed.maxPriorityFeePerGas),
    paymasterAndData: parsed.paymasterAndData as Hex,
    signature: '0x',
  }
  const userOpHash = entryPointV06.computeUserOpHash(op, chain.chainId)
  const { signature: _signature, ...wire } = { ...parsed, sender: op.sender }
  return { wire, op, userOpHash }
}

/**
 * Signs a v0.6 operation as the owner: the EIP-191 message of its userOpHash (what SimpleAccount, LightAccount
 * v1.1, Kernel v2's ECDSA validator, Trust and thirdweb recover), or the userOpHash itself (`signs: 'hash'`: the
 * Coinbase Smart Wallet), shaped by `wrap` when the account prefixes or encodes it (with the operation, for an account
 * whose signature carries some of its fields).
 */
export async function signOperationV06Message(
  chain: Chain,
  account: { ownerPrivateKey: Hex },
  input: unknown,
  wrap: (signature: Hex, op: UserOperationV06) => Hex = (signature) => signature,
  signs: 'message' | 'hash' = 'message',
): Promise<{ userOperation: WireOperation; userOpHash: Hash; signature: Hex }> {
  const { wire, op, userOpHash } = readOperationV06(chain, input)
  const owner = privateKeyToAccount(account.ownerPrivateKey)
  const signature = wrap(
    signs === 'hash'
      ? await owner.sign({ hash: userOpHash })
      : await owner.signMessage({ message: { raw: userOpHash } }),
    op,
  )
  return { userOperation: { ...wire, signature }, userOpHash, signature }
}
