import type { Address, Hash, Hex } from 'viem'
import type { Chain } from '../../chain'
import type { GasLimits, PackedPaymasterFields } from '../../paymaster/types'
import type { EntryPointVersion } from '..'

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/** The paymaster that signs an operation, with the fields it signs. */
export type PaymasterChoice =
  | { kind: 'verifying'; paymasterId: Address; validUntil: number; validAfter: number }
  | {
      kind: 'token'
      feeToken: Address
      /** Token base units per 1e18 wei. */
      exchangeRate: bigint
      /** 1e6 = no markup. */
      priceMarkup: number
      validUntil: number
      validAfter: number
    }

/** The paymaster part of a signed operation: its paymasterAndData, and for v0.7+ the ERC-7769 fields it packs. */
export type SignedPaymaster = { paymasterAndData: Hex; fields?: PackedPaymasterFields }

/**
 * A UserOperation from a paymaster request, bound to its EntryPoint version (`entryPoint/v06`, `entryPoint/v07`):
 * what the policies read, and that version's estimate, paymaster signing, hash and maximum cost. The sponsorship
 * flow works on this shape and never reads a version's own fields.
 */
export type SponsorableOperation = {
  readonly entryPointVersion: EntryPointVersion
  readonly entryPoint: Address
  readonly sender: Address
  readonly nonce: bigint
  readonly callData: Hex
  /** v0.6 initCode; v0.7+ factory ‖ factoryData (what the policies call initCode). */
  readonly initCode: Hex
  readonly fees: Partial<Fees>
  /** The operation's own gas limits when it carries every one its version needs, else null. */
  readonly ownGas: GasLimits | null
  /** The paymaster of this kind serving this version. */
  paymasterAddress(chain: Chain, kind: PaymasterChoice['kind']): Address
  /** The operation in its version's RPC form, quantities as 0x-hex (webhooks receive it). */
  toWire(): Record<string, unknown>
  /**
   * Gas limits by simulation, with the paymaster's data signed for each trial operation (the paymaster's balance
   * check lifted: the real balance is checked afterwards), or without a paymaster (the user pays).
   */
  estimate(chain: Chain, fees: Fees, paymaster?: PaymasterChoice): Promise<GasLimits>
  /** The paymaster part signed over the operation with these limits and fees. */
  sign(chain: Chain, paymaster: PaymasterChoice, gas: GasLimits, fees: Fees): Promise<SignedPaymaster>
  /** A paymaster part of the final size whose signature does not verify (ERC-7677 stub data). */
  stub(chain: Chain, paymaster: PaymasterChoice): Promise<SignedPaymaster>
  /** The userOpHash with these limits, fees and paymaster (the signature is not part of it). */
  computeUserOpHash(chain: Chain, gas: GasLimits, fees: Fees, paymaster: SignedPaymaster | null): Hash
  /** The most the operation can cost its paymaster at these limits (the EntryPoint's prefund). */
  maxCost(gas: GasLimits, maxFeePerGas: bigint): bigint
}
