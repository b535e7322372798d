import {
  type Address,
  encodeAbiParameters,
  type Hex,
  keccak256,
  numberToHex,
  type RpcStateOverride,
} from 'viem'

/** Balance given in estimation overrides: far above any prefund, far below overflow. */
const PLENTY = 10n ** 30n

/** Storage slot of `paymasterIdBalances` in VerifyingSingletonPaymaster v1.1.0 (Ownable, ReentrancyGuard, overhead, balances). */
export const VERIFYING_PAYMASTER_BALANCES_SLOT = 3n
/** Storage slot of `_balances` in OpenZeppelin's ERC20 (the test tokens). */
export const ERC20_BALANCES_SLOT = 0n

function mappingSlot(key: Address, slot: bigint): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot]))
}

/**
 * Estimation runs with generous trial gas limits, whose prefund a small but sufficient gas tank (or token
 * balance) could not cover. These overrides lift that balance in the simulation only; the real balance is
 * checked against the final limits afterwards.
 */
export function overrideGasTankBalance(verifyingPaymaster: Address, paymasterId: Address): RpcStateOverride {
  return overrideStorageWord(verifyingPaymaster, mappingSlot(paymasterId, VERIFYING_PAYMASTER_BALANCES_SLOT))
}

/** A balance word of `contract` (at `slot`) lifted far above any prefund. */
export function overrideStorageWord(contract: Address, slot: Hex): RpcStateOverride {
  return { [contract]: { stateDiff: { [slot]: numberToHex(PLENTY, { size: 32 }) } } } as RpcStateOverride
}

export function overrideTokenBalance(token: Address, holder: Address): RpcStateOverride {
  return {
    [token]: { stateDiff: { [mappingSlot(holder, ERC20_BALANCES_SLOT)]: numberToHex(PLENTY, { size: 32 }) } },
  } as RpcStateOverride
}
