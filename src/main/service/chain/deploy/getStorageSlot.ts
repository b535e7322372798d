import { type Address, encodeAbiParameters, type Hex, keccak256, numberToHex, pad } from 'viem'

export type StorageLayout = readonly { label: string; slot: string; offset: number; type: string }[]

/** Slot of a state variable (offset 0 only) from solc's storage layout. */
export function getStorageSlot(layout: StorageLayout, label: string): bigint {
  const entry = layout.find((s) => s.label === label)
  if (!entry) throw new Error(`No state variable ${label} in the storage layout`)
  if (entry.offset !== 0) throw new Error(`State variable ${label} is packed (offset ${entry.offset})`)
  return BigInt(entry.slot)
}

/** Slot of `mapping(address => …)[key]` declared at `slot`. */
export function getAddressMappingSlot(slot: bigint, key: Address): bigint {
  return BigInt(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot])))
}

/** A 32-byte storage word. */
export function toStorageWord(value: bigint | Address): Hex {
  return typeof value === 'bigint' ? pad(numberToHex(value), { size: 32 }) : pad(value, { size: 32 })
}

export const toSlotHex = (slot: bigint): Hex => pad(numberToHex(slot), { size: 32 })
