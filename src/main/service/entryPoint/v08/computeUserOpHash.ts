import { type Address, type Hash, keccak256, toHex } from 'viem'
import { keccak256Words } from '../../chain/keccak256'
import { encodePackedFields } from '../v07/computeUserOpHash'
import type { PackedUserOperation } from '../v07/packUserOperation'
import { EIP7702_FACTORY_MARKER } from '../v07/userOperation'

const word = (value: bigint) => value.toString(16).padStart(64, '0')
const addressWord = (address: Address) => `000000000000000000000000${address.slice(2).toLowerCase()}`

const PACKED_USEROP_TYPEHASH = keccak256(
  toHex(
    'PackedUserOperation(address sender,uint256 nonce,bytes initCode,bytes callData,bytes32 accountGasLimits,uint256 preVerificationGas,bytes32 gasFees,bytes paymasterAndData)',
  ),
).slice(2)
const DOMAIN_TYPEHASH = keccak256(
  toHex('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
).slice(2)
const NAME_HASH = keccak256(toHex('ERC4337')).slice(2)
const VERSION_HASH = keccak256(toHex('1')).slice(2)

/** The v0.8 EntryPoint's EIP-712 domain separator (name "ERC4337", version "1"). */
export function getDomainSeparatorV08(chainId: number, entryPoint: Address): string {
  return keccak256Words(
    DOMAIN_TYPEHASH + NAME_HASH + VERSION_HASH + word(BigInt(chainId)) + addressWord(entryPoint),
  )
}

/**
 * EntryPoint v0.8 `getUserOpHash`: the EIP-712 hash of the packed operation. For an EIP-7702 account (initCode
 * starting with the `0x7702` marker) initCode is hashed as delegate ‖ initCode[20:], the delegate being the
 * address the account's code delegates to (`delegate`: the authorization's address).
 */
export function computeUserOpHashV08(
  op: PackedUserOperation,
  chainId: number,
  entryPoint: Address,
  delegate?: Address,
): Hash {
  let initCodeHash: string | undefined
  if (
    op.initCode.length >= 6 &&
    op.initCode.slice(0, 6).toLowerCase() === EIP7702_FACTORY_MARKER.slice(0, 6)
  ) {
    if (!delegate) throw new Error('an EIP-7702 operation needs its delegate to be hashed')
    initCodeHash = keccak256Words(delegate.slice(2).toLowerCase() + op.initCode.slice(42))
  }
  const structHash = keccak256Words(PACKED_USEROP_TYPEHASH + encodePackedFields(op, initCodeHash))
  return `0x${keccak256Words(`1901${getDomainSeparatorV08(chainId, entryPoint)}${structHash}`)}`
}
