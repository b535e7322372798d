/**
 * What a call to the embedded node does to its state, for the write journal (openWriteJournal.ts):
 * - `read`: nothing (most calls);
 * - `transaction`: sends a transaction; journaled with its hash and the block it landed in;
 * - `replayable`: a dev method that changes state (anvil_setBalance, evm_mine, evm_increaseTime, ...); journaled
 *   and sent again as it was;
 * - `barrier`: a dev method that cannot be replayed in order (a reset, a revert to a snapshot, a state load, a
 *   reorg): the state is saved whole before the call is answered, and the journal starts again from there.
 */
export type NodeWriteKind = 'read' | 'transaction' | 'replayable' | 'barrier'

const TRANSACTION_METHODS = new Set([
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'eth_sendRawTransactionSync',
])

const BARRIER_METHODS = new Set([
  'anvil_reset',
  'hardhat_reset',
  'evm_revert',
  'anvil_revert',
  'anvil_loadState',
  'hardhat_loadState',
  'anvil_reorg',
  'anvil_rollback',
  'anvil_setRpcUrl',
  'anvil_setChainId',
])

/** Dev methods that read, or change only what is not part of the chain's state (logging, tracing, snapshots ids). */
const READ_ONLY_DEV_METHODS = new Set([
  'anvil_dumpState',
  'hardhat_dumpState',
  'anvil_nodeInfo',
  'anvil_metadata',
  'hardhat_metadata',
  'anvil_getAutomine',
  'hardhat_getAutomine',
  'anvil_getIntervalMining',
  'anvil_setLoggingEnabled',
  'hardhat_setLoggingEnabled',
  'anvil_enableTraces',
  'evm_snapshot',
  'anvil_snapshot',
  'anvil_getBlobByHash',
  'anvil_getBlobsByTransactionHash',
])

const DEV_METHOD = /^(anvil|hardhat|evm)_/

export function classifyNodeWrite(method: string): NodeWriteKind {
  if (TRANSACTION_METHODS.has(method)) return 'transaction'
  if (BARRIER_METHODS.has(method)) return 'barrier'
  if (DEV_METHOD.test(method) && !READ_ONLY_DEV_METHODS.has(method)) return 'replayable'
  return 'read'
}
