import type { Hex } from 'viem'

/** A 65-byte signature of non-zero bytes: sizes a paymaster's data for preVerificationGas before it is signed. */
export const PLACEHOLDER_SIGNATURE = `0x${'ff'.repeat(65)}` as Hex

/**
 * The signature of ERC-7677 stub data: a well-formed ECDSA signature (low s, v 27, no zero byte) that the paymasters'
 * `ECDSA.recover` reads without reverting, by a throwaway key over a fixed hash, so it never verifies and validation
 * takes the paymaster's signature-failure path (as a signature over other fields would). It is constant: a stub costs
 * no signing (an ECDSA signature and three hashes an operation). Made by
 * `privateKeyToAccount(keccak256(toHex('opstation stub signer'))).sign({ hash: keccak256(toHex('opstation paymaster stub data')) })`.
 */
export const STUB_SIGNATURE: Hex =
  '0xabe5d0936f99561f8e3f0556026b91ebbbdbee4512920eae16d3bdbab7a2aa2c5bff1b55f796a872aeaf3cde93b2f52e0fcc34acc544491283d9f11b0da2a25d1b'
