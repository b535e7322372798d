import type { Address, Hex } from 'viem'
import { keccak256Words } from '../../chain/keccak256'

/** Storage slot of EntryPoint v0.6 `nonceSequenceNumber` (StakeManager.deposits is slot 0, NonceManager's mapping slot 1). */
const NONCE_SEQUENCE_NUMBER_SLOT = 1n

/**
 * Slot of `nonceSequenceNumber[sender][key]` in EntryPoint v0.6 (to simulate with a state override of the nonce):
 * keccak256(abi.encode(uint192 key, keccak256(abi.encode(address sender, uint256 1)))).
 */
export function entryPointNonceSlot(sender: Address, key: bigint): Hex {
  const outer = keccak256Words(
    `000000000000000000000000${sender.slice(2).toLowerCase()}${NONCE_SEQUENCE_NUMBER_SLOT.toString(16).padStart(64, '0')}`,
  )
  return `0x${keccak256Words(`${key.toString(16).padStart(64, '0')}${outer}`)}`
}
