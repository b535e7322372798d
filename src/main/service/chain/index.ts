/**
 * The chain module: the only code that talks to the node. Start it with `startChain(config)`; every other
 * function takes the returned `Chain` first (viem style).
 */

// ABIs
export { entryPointAbi } from './abis/entryPoint'
export { simpleAccountAbi, simpleAccountFactoryAbi } from './abis/simpleAccount'
export { ecdsaModuleAbi, smartAccountAbi, smartAccountFactoryAbi } from './abis/smartAccount'
export { testTokenAbi } from './abis/testToken'
export { tokenPaymasterAbi } from './abis/tokenPaymaster'
export { verifyingPaymasterAbi } from './abis/verifyingPaymaster'
export { canonicalAddresses, defaults as chainDefaults, testTokens } from './constants'
export { decodeRevertReason, getRevertData } from './entryPoint/decodeRevert'
export { FailedOpError, SimulationRevertedError } from './entryPoint/errors'
export { type DepositInfo, getDepositInfo, getEntryPointBalance } from './entryPoint/getDepositInfo'
// EntryPoint
export { getNonce } from './entryPoint/getNonce'
// Faucet
export { fundEth } from './faucet/fundEth'
export { mintToken } from './faucet/mintToken'
// Gas tanks (verifying paymaster, per-dApp paymasterId)
export {
  type CreateGasTankParameters,
  createGasTank,
  listGasTankVersions,
  readDepositedGasTanks,
} from './gasTank/createGasTank'
export { depositToGasTank } from './gasTank/depositToGasTank'
export { gasTankAbi, getGasTankPaymaster } from './gasTank/gasTankPaymaster'
export { getGasTankBalance } from './gasTank/getGasTankBalance'
export { withdrawFromGasTank } from './gasTank/withdrawFromGasTank'
export { increaseTime, mine } from './node/increaseTime'
export { requestRpc } from './node/requestRpc'
export { setAutomine, setIntervalMining } from './node/setMining'
export { revert, snapshot } from './node/snapshot'
// Node control
export { type TraceCallOptions, type TraceCallRequest, traceCall } from './node/traceCall'
export { startChain } from './startChain'
export type {
  Chain,
  ChainAddresses,
  ChainConfig,
  ChainEvent,
  ChainEventListener,
  ExecutorClient,
  NodeCapabilities,
  TokenInfo,
} from './types'
