import { type ChainClock, TIME_METHODS } from '../clock/createChainClock'
import type { NodeRequest } from '../node/nodeRpcError'
import type { StackSnapshots } from './createStackSnapshots'

const SNAPSHOT_METHODS = new Set(['evm_snapshot', 'anvil_snapshot'])
const REVERT_METHODS = new Set(['evm_revert', 'anvil_revert'])
const RESET_METHODS = new Set(['anvil_reset', 'hardhat_reset'])

/**
 * The params of a plain reset (to a new empty chain), or undefined for a reset that forks a chain (a URL given): that
 * one is the node's alone, the stack is not put back to its first start. viem's `reset()` sends
 * `{ forking: { blockNumber: null } }` even without a URL: a plain reset on a node that forks nothing.
 */
function readPlainReset(params: unknown): unknown[] | undefined {
  const [options] = Array.isArray(params) ? params : []
  const forking = (options as { forking?: { jsonRpcUrl?: unknown } } | undefined)?.forking
  return typeof forking?.jsonRpcUrl === 'string' ? undefined : []
}

/**
 * The node's request as the service's clients and the chain RPC see it: snapshots, reverts and resets go through the
 * stack (the service's state goes with the chain), and after a call that moves the chain's time the clock is read
 * again before it is answered, so the next call (a paymaster signature, a policy check) is judged by the new time.
 */
export function routeStackMethods(p: {
  request: NodeRequest
  stack: StackSnapshots
  clock: ChainClock
  /** Deploys the contracts again after a reset, and answers once they are there. */
  redeploy: () => Promise<void>
  /** The node forks another chain: its resets are its own (back to the fork's block), not the stack's first start. */
  isFork: boolean
}): NodeRequest {
  const { request, stack, clock } = p
  return async (method, params, readBody) => {
    if (SNAPSHOT_METHODS.has(method)) return stack.snapshot(method)
    if (REVERT_METHODS.has(method)) {
      const [id] = Array.isArray(params) ? params : []
      const reverted = await stack.revert(id, method)
      await clock.sync()
      return reverted
    }
    const plainReset = RESET_METHODS.has(method) && !p.isFork ? readPlainReset(params) : undefined
    if (plainReset) {
      const result = await stack.reset(plainReset, method, p.redeploy)
      await clock.sync()
      return result
    }
    const result = await request(method, params, readBody)
    if (TIME_METHODS.has(method)) await clock.sync()
    return result
  }
}
