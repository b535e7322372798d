/**
 * The chain's contracts and test tokens: what the chain module deploys (src/main/service/chain), what the public API
 * answers (`Opstation.addresses`) and what the console reads from `/console/api/status`. Types only (the package's
 * declarations ship this file).
 */

type Hex = `0x${string}`

export type OpstationToken = { name: string; symbol: string; address: Hex; decimals: number }

/** The contracts on the chain, at the addresses real SDKs expect. */
export type OpstationAddresses = {
  create2Deployer: Hex
  entryPoint: Hex
  simpleAccountFactory: Hex
  smartAccountFactory: Hex
  smartAccountImplementation: Hex
  fallbackHandler: Hex
  ecdsaModule: Hex
  verifyingPaymaster: Hex
  tokenPaymaster: Hex
  entryPointV07: Hex
  simpleAccountFactoryV07: Hex
  entryPointV08: Hex
  simpleAccountFactoryV08: Hex
  simple7702AccountV08: Hex
  entryPointV09: Hex
  /** v0.9's Simple7702Account (viem's `toSimple7702SmartAccount({ entryPoint: '0.9' })` delegate). */
  simple7702AccountV09: Hex
  /** Opstation's paymasters of EntryPoint v0.7, v0.8 and v0.9 (per-dApp gas tanks; ERC20 mode). */
  verifyingPaymasterV07: Hex
  tokenPaymasterV07: Hex
  verifyingPaymasterV08: Hex
  tokenPaymasterV08: Hex
  verifyingPaymasterV09: Hex
  tokenPaymasterV09: Hex
  tokens: OpstationToken[]
}
