import {
  type Address,
  concat,
  decodeAbiParameters,
  encodeAbiParameters,
  getAddress,
  type Hash,
  type Hex,
  hexToNumber,
  type LocalAccount,
  numberToHex,
  slice,
} from 'viem'
import { hashForPaymaster, type SignableUserOperation } from './hashForPaymaster'

/** Byte length of a signed token-paymaster paymasterAndData: 20 + 1 + 192 + 65. */
export const TOKEN_PAYMASTER_AND_DATA_SIZE = 278

/** Price source byte: 0 = EXTERNAL_EXCHANGE_RATE (the signed rate is used), 1 = ORACLE_BASED. */
export const PriceSource = { externalExchangeRate: 0, oracleBased: 1 } as const

/** 1e6 = no markup (token paymaster priceMarkup scale). */
export const PRICE_DENOMINATOR = 1_000_000n

const dataParameters = [
  { type: 'uint48', name: 'validUntil' },
  { type: 'uint48', name: 'validAfter' },
  { type: 'address', name: 'feeToken' },
  { type: 'address', name: 'oracleAggregator' },
  { type: 'uint256', name: 'exchangeRate' },
  { type: 'uint32', name: 'priceMarkup' },
] as const

export type TokenPaymasterFields = {
  paymaster: Address
  priceSource: number
  validUntil: number
  validAfter: number
  feeToken: Address
  oracleAggregator: Address
  /** Token base units per 1e18 wei. */
  exchangeRate: bigint
  /** 1e6 = no markup; 1.1e6 = 10 %. */
  priceMarkup: number
}

/**
 * BiconomyTokenPaymaster `getHash(op, priceSource, validUntil, validAfter, feeToken, oracleAggregator,
 * exchangeRate, priceMarkup)` computed off-chain.
 */
export function getTokenPaymasterHash(
  op: SignableUserOperation,
  fields: TokenPaymasterFields & { chainId: number },
): Hash {
  return hashForPaymaster(op, fields.chainId, fields.paymaster, {
    types: [
      { type: 'uint8' },
      { type: 'uint48' },
      { type: 'uint48' },
      { type: 'address' },
      { type: 'address' },
      { type: 'uint256' },
      { type: 'uint32' },
    ],
    values: [
      fields.priceSource,
      fields.validUntil,
      fields.validAfter,
      fields.feeToken,
      fields.oracleAggregator,
      fields.exchangeRate,
      fields.priceMarkup,
    ],
  })
}

/** paymaster(20) ‖ priceSource(1) ‖ abi.encode(validUntil, validAfter, feeToken, oracle, rate, markup) ‖ signature(65). */
export function encodeTokenPaymasterAndData(fields: TokenPaymasterFields & { signature: Hex }): Hex {
  return concat([
    fields.paymaster,
    numberToHex(fields.priceSource, { size: 1 }),
    encodeAbiParameters(dataParameters, [
      fields.validUntil,
      fields.validAfter,
      fields.feeToken,
      fields.oracleAggregator,
      fields.exchangeRate,
      fields.priceMarkup,
    ]),
    fields.signature,
  ])
}

export function decodeTokenPaymasterAndData(
  paymasterAndData: Hex,
): TokenPaymasterFields & { signature: Hex } {
  const [validUntil, validAfter, feeToken, oracleAggregator, exchangeRate, priceMarkup] = decodeAbiParameters(
    dataParameters,
    slice(paymasterAndData, 21, 213),
  )
  return {
    paymaster: getAddress(slice(paymasterAndData, 0, 20)),
    priceSource: hexToNumber(slice(paymasterAndData, 20, 21)),
    validUntil,
    validAfter,
    feeToken,
    oracleAggregator,
    exchangeRate,
    priceMarkup,
    signature: slice(paymasterAndData, 213),
  }
}

/** Signs the op for the token paymaster (EIP-191 personal sign over getHash) and encodes paymasterAndData. */
export async function signTokenPaymasterAndData(
  op: SignableUserOperation,
  fields: TokenPaymasterFields & { chainId: number; signer: LocalAccount },
): Promise<Hex> {
  const hash = getTokenPaymasterHash(op, fields)
  const signature = await fields.signer.signMessage({ message: { raw: hash } })
  return encodeTokenPaymasterAndData({ ...fields, signature })
}
