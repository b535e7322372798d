import { type Address, encodeAbiParameters, type Hex, keccak256 } from 'viem'

/** Storage slot of EntryPoint v0.6 `nonceSequenceNumber` (StakeManager.deposits is slot 0, NonceManager's mapping slot 1). */
const NONCE_SEQUENCE_NUMBER_SLOT = 1n

/** Slot of `nonceSequenceNumber[sender][key]` in EntryPoint v0.6 (to simulate with a state override of the nonce). */
export function entryPointNonceSlot(sender: Address, key: bigint): Hex {
  const outer = keccak256(
    encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [sender, NONCE_SEQUENCE_NUMBER_SLOT]),
  )
  return keccak256(encodeAbiParameters([{ type: 'uint192' }, { type: 'bytes32' }], [key, outer]))
}
