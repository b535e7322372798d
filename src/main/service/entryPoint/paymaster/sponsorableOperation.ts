import type { AbiEvent, Address, Hash, Hex } from 'viem'
import type { Chain } from '../../chain/types'
import type { EntryPointVersion, GasFees } from '../types'

export type Fees = GasFees

export type PaymasterMode = 'SPONSORED' | 'ERC20'

export type GasLimits = {
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  /** EntryPoint v0.7+ with a paymaster: the paymaster's own two limits. */
  paymasterVerificationGasLimit?: bigint
  paymasterPostOpGasLimit?: bigint
}

/** How a v0.7+ operation carries its paymaster (ERC-7769); packed, they are its paymasterAndData. */
export type PackedPaymasterFields = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
  /** v0.9: the paymaster's signature as its own field (packed after paymasterData, left out of the userOpHash). */
  paymasterSignature?: Hex
}

/** The sponsor result of spec 2.6 before wire encoding (v0.7+: with the paymaster's ERC-7769 fields). */
export type SponsorResult = GasLimits & {
  mode: PaymasterMode
  paymasterAndData: Hex
  paymasterFields?: PackedPaymasterFields
}

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
  /**
   * The operation carries gas limits a paymaster can sign as they are: its own account limits, not all zero (viem
   * sends 0x0 for those it has not estimated), and for v0.7+ the paymaster's two limits.
   */
  readonly carriesGasLimits: boolean
  /**
   * Its EntryPoint reads a paymaster's window in block numbers (validAfter and validUntil with the top bit set: v0.9);
   * otherwise only times.
   */
  readonly blockWindows: boolean
  /** The paymaster of this kind serving this version. */
  paymasterAddress(chain: Chain, kind: PaymasterChoice['kind']): Address
  /**
   * The validity window of this kind of paymaster's data that the operation already carries, where its version lets
   * the account sign before the paymaster does (v0.9: stub data, then pm_getPaymasterData): signing with it again
   * keeps the paymasterData, and so the userOpHash, the account signed. Null elsewhere.
   */
  carriedWindow(
    chain: Chain,
    kind: PaymasterChoice['kind'],
  ): { validUntil: number; validAfter: number } | null
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

/**
 * The paymaster side of an EntryPoint version (`module.paymaster`): how a paymaster request's operation binds to the
 * version's paymasters, how a sponsor result is answered, and how its verifying paymaster charges a gas tank.
 */
export type PaymasterBinding = {
  /** Parses `params[0]` of a paymaster request with the version's partial schema and binds it to its paymasters. */
  bind(raw: unknown): SponsorableOperation
  /**
   * The sponsor result in the version's answer form: spec 2.6's mixed types for v0.6 (preVerificationGas a decimal
   * string, the two limits numbers), ERC-7769's hex fields for v0.7+; `mode` and `MODE` carry the same.
   */
  formatSponsorResult(result: SponsorResult): SponsorResultAnswer
  /** The event the verifying paymaster's postOp logs when it charges a gas tank (paymasterId, charge). */
  readonly chargeEvent: AbiEvent
}

/** A sponsor result as answered (see PaymasterBinding.formatSponsorResult). */
export type SponsorResultAnswer =
  | {
      mode: PaymasterMode
      MODE: PaymasterMode
      paymasterAndData: Hex
      preVerificationGas: string
      verificationGasLimit: number
      callGasLimit: number
    }
  | ({ mode: PaymasterMode; MODE: PaymasterMode } & HexSponsorResult)

/** The sponsor result with every quantity 0x-hex: the paymaster's ERC-7769 fields when it has them, and its limits. */
export type HexSponsorResult = {
  paymaster?: Address
  paymasterData?: Hex
  paymasterVerificationGasLimit?: Hex
  paymasterPostOpGasLimit?: Hex
  paymasterSignature?: Hex
  preVerificationGas: Hex
  verificationGasLimit: Hex
  callGasLimit: Hex
}
