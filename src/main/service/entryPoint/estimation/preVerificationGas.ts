import type { Hex } from 'viem'

/** Gas overheads of a handleOps bundle that the EntryPoint cannot measure (eth-infinitism's defaults). */
export const preVerificationGasOverheads = {
  /** Transaction base cost, paid once per bundle. */
  fixed: 21_000,
  /** EntryPoint bookkeeping per UserOperation outside the measured frames. */
  perUserOp: 18_300,
  /** Per 32-byte word of the ABI-encoded UserOperation (memory copies). */
  perUserOpWord: 4,
  zeroByte: 4,
  nonZeroByte: 16,
  /** Bundles are charged as if each UserOperation were alone, so the fixed cost is never under-paid. */
  bundleSize: 1,
} as const

/**
 * Stand-ins for the numeric gas fields, so the result does not depend on values that are still being estimated
 * (or that a client may raise later): each is wider than any realistic value.
 */
export const GAS_FIELD_PLACEHOLDER = 0xffff_ffffn
export const FEE_FIELD_PLACEHOLDER = 0xff_ffff_ffffn
/** A signature is counted as at least this long (an ECDSA signature), whatever the stub sent. */
export const MIN_SIGNATURE_LENGTH = 65

/**
 * Non-zero bytes of the value's length: how preVerificationGas counts the bytes whose values change once signed
 * (the signature; the paymaster's data, whose stub or placeholder is replaced by data signed over the estimate).
 */
export function nonZeroBytesOfLength(value: Hex): Hex {
  return `0x${'ff'.repeat((value.length - 2) / 2)}`
}

/** The zero bytes of hex without 0x (what calldata prices lower: 4 gas instead of 16, one token instead of four). */
function countZeroBytes(encoded: string): number {
  let zeros = 0
  for (let i = 0; i < encoded.length; i += 2)
    if (encoded.charCodeAt(i) === 48 && encoded.charCodeAt(i + 1) === 48) zeros += 1 // "00"
  return zeros
}

/** One part of a preVerificationGas figure: what it pays for, and how much (a fraction where the calculator has one). */
export type PreVerificationGasPart = { name: string; gas: number }

/** A preVerificationGas figure with its parts (they add up to it, before its rounding up). */
export type PreVerificationGasBreakdown = {
  /** `calldata and overheads` (every version's), or `EIP-7623` (the reference bundler's, v0.7 and later). */
  calculator: 'calldata and overheads' | 'EIP-7623'
  total: bigint
  parts: PreVerificationGasPart[]
}

/**
 * preVerificationGas of an operation given as `abi.encode(op)` (hex without 0x: the tuple's offset word, then the
 * tuple, as it sits in handleOps' calldata): its calldata cost, the op's offset word in the array head, and the fixed
 * and per-op overheads. Every EntryPoint version's estimate ends here.
 */
export function preVerificationGasOfEncoded(encoded: string): bigint {
  return breakDownPreVerificationGasOfEncoded(encoded).total
}

/** preVerificationGasOfEncoded's figure with its parts. */
export function breakDownPreVerificationGasOfEncoded(encoded: string): PreVerificationGasBreakdown {
  const o = preVerificationGasOverheads
  const length = encoded.length / 2
  const zeroBytes = countZeroBytes(encoded)
  const words = Math.ceil(length / 32)
  const parts: PreVerificationGasPart[] = [
    { name: `calldata: ${zeroBytes} zero bytes × ${o.zeroByte}`, gas: zeroBytes * o.zeroByte },
    {
      name: `calldata: ${length - zeroBytes} non-zero bytes × ${o.nonZeroByte}`,
      gas: (length - zeroBytes) * o.nonZeroByte,
    },
    // The op's offset word in the handleOps array head (32 bytes, almost all zero).
    { name: 'calldata: its offset word in the bundle', gas: 31 * o.zeroByte + o.nonZeroByte },
    { name: 'transaction base cost (a bundle of one)', gas: o.fixed / o.bundleSize },
    { name: 'EntryPoint overhead per operation', gas: o.perUserOp },
    { name: `memory: ${words} words × ${o.perUserOpWord}`, gas: o.perUserOpWord * words },
  ]
  return { calculator: 'calldata and overheads', total: totalOf(parts), parts }
}

/** The parts' sum, rounded up. */
const totalOf = (parts: readonly PreVerificationGasPart[]) =>
  BigInt(Math.ceil(parts.reduce((sum, part) => sum + part.gas, 0)))

/**
 * The preVerificationGas the reference bundler (eth-infinitism/bundler, PreVerificationGasCalculator's MainnetConfig)
 * requires of a packed operation (EntryPoint v0.7 and later), EIP-7623 included: the bundle transaction's stipend and
 * fixed overhead (a bundle of one), a per-operation overhead and 9.5 gas per word of callData, 4 gas per calldata
 * token (a zero byte is one token, any other byte four), and at least EIP-7623's floor of 10 gas per token for the
 * part of the operation's calldata the gas it uses does not already pay. Values from bundler v0.8's calculator.
 */
export const packedPreVerificationGasConfig = {
  transactionGasStipend: 21_000,
  fixedGasOverhead: 9_830,
  perUserOpGasOverhead: 7_260,
  perUserOpWordGasOverhead: 9.5,
  /** callData that calls the account's executeUserOp: an overhead per operation and per word of the operation. */
  executeUserOpGasOverhead: 1_610,
  executeUserOpPerWordGasOverhead: 8.2,
  standardTokenGasCost: 4,
  floorPerTokenGasCost: 10,
  tokensPerNonzeroByte: 4,
  eip7702AuthGas: 25_000,
} as const

const EXECUTE_USER_OP_SELECTOR = '8dd7712f'

export type PackedPreVerificationGasParameters = {
  /** `abi.encode(packedOp)` without 0x, as preVerificationGasOfEncoded takes it. */
  encoded: string
  callData: Hex
  /**
   * Gas the bundle is known to use for the operation besides its calldata (10 % of callGasLimit and
   * paymasterPostOpGasLimit, and the validation gas when simulated): what already pays for calldata under the floor.
   * 0 asks the most.
   */
  gasUsed: bigint
  eip7702: boolean
}

/** preVerificationGas of a packed operation by the reference bundler's EIP-7623 calculator (see the config above). */
export function packedPreVerificationGas(params: PackedPreVerificationGasParameters): bigint {
  return breakDownPackedPreVerificationGas(params).total
}

/**
 * packedPreVerificationGas's figure with its parts: the standard calldata cost and overheads, or (when it asks more)
 * EIP-7623's floor less the gas the operation is known to use otherwise.
 */
export function breakDownPackedPreVerificationGas({
  encoded,
  callData,
  gasUsed,
  eip7702,
}: PackedPreVerificationGasParameters): PreVerificationGasBreakdown {
  const c = packedPreVerificationGasConfig
  const zeroBytes = countZeroBytes(encoded)
  const tokens = zeroBytes + (encoded.length / 2 - zeroBytes) * c.tokensPerNonzeroByte
  const words = (encoded.length / 2 + 31) / 32
  const callDataWords = Math.ceil((callData.length - 2) / 2 / 32)
  const executeUserOp = callData.slice(2, 10).toLowerCase() === EXECUTE_USER_OP_SELECTOR
  const overheads: PreVerificationGasPart[] = [
    { name: 'bundle overhead', gas: c.fixedGasOverhead },
    { name: 'EntryPoint overhead per operation', gas: c.perUserOpGasOverhead },
    ...(eip7702 ? [{ name: 'EIP-7702 authorization', gas: c.eip7702AuthGas }] : []),
    executeUserOp
      ? {
          name: `executeUserOp: ${c.executeUserOpGasOverhead} and ${words} words × ${c.executeUserOpPerWordGasOverhead}`,
          gas: c.executeUserOpGasOverhead + c.executeUserOpPerWordGasOverhead * words,
        }
      : {
          name: `callData: ${callDataWords} words × ${c.perUserOpWordGasOverhead}`,
          gas: callDataWords * c.perUserOpWordGasOverhead,
        },
  ]
  const used = Number(gasUsed)
  const execution = overheads.reduce((sum, part) => sum + part.gas, 0) + used
  const stipend = { name: 'transaction stipend', gas: c.transactionGasStipend }
  const standard = c.standardTokenGasCost * tokens + execution
  const floor = c.floorPerTokenGasCost * tokens
  const parts: PreVerificationGasPart[] =
    standard >= floor
      ? [
          stipend,
          {
            name: `calldata: ${tokens} tokens × ${c.standardTokenGasCost}`,
            gas: c.standardTokenGasCost * tokens,
          },
          ...overheads,
        ]
      : [
          stipend,
          { name: `EIP-7623 floor: ${tokens} tokens × ${c.floorPerTokenGasCost}`, gas: floor },
          { name: 'less the gas the operation is known to use otherwise', gas: -used },
        ]
  const total = c.transactionGasStipend + Math.max(standard, floor) - used
  return { calculator: 'EIP-7623', total: BigInt(Math.round(total)), parts }
}
