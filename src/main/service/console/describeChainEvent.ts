import type { ChainStatus } from '../../../shared/serviceInfo'
import type { ChainEvent } from '../chain/types'

const clock = (date: Date) => date.toISOString().slice(11, 19)

/**
 * The chain's status as the console and `GET /console/api/status` show it, after one event of the chain (the embedded
 * node's supervision, or the watch of any node: health/watchNode.ts). Returns what changed; `since` is when the
 * current state began.
 */
export function describeChainEvent(
  event: ChainEvent,
  rpcUrl: string,
  now = new Date(),
): Pick<ChainStatus, 'message'> & Partial<Pick<ChainStatus, 'state' | 'since'>> {
  const since = now.toISOString()
  switch (event.type) {
    case 'chain.exited':
      return {
        state: 'restarting',
        since,
        message: `anvil exited (code ${event.code ?? '-'}, signal ${event.signal ?? '-'}); restarting`,
      }
    case 'chain.restarted':
      return { state: 'ready', since, message: `anvil restarted in ${event.restartMs} ms` }
    case 'chain.unreachable':
      return {
        state: 'unreachable',
        since: event.since.toISOString(),
        message: `unreachable since ${clock(event.since)}: the node at ${rpcUrl} does not answer (${event.error})`,
      }
    case 'chain.wrongChain':
      return {
        state: 'wrong-chain',
        since,
        message: `the node at ${rpcUrl} now serves chain id ${event.chainId}: left alone until it serves this chain again`,
      }
    case 'chain.stalled':
      return {
        state: 'stalled',
        since,
        message: `no block since block ${event.head} (${Math.round(event.stillMs / 1000)} s) although the chain mines on a timer: operations wait`,
      }
    case 'chain.advancing':
      return { state: 'ready', since, message: `blocks are mined again (${clock(now)})` }
    case 'chain.reachable':
      return { state: 'ready', since, message: `the node is back (${clock(now)}), as it was` }
    case 'chain.recovering':
      return {
        state: 'recovering',
        since,
        message: event.reset
          ? `reset detected at ${clock(now)}: the node lost this chain's state; redeploying the contracts`
          : `contracts missing at ${clock(now)}: ${event.missing.join(', ')}; redeploying them`,
      }
    case 'chain.recovered':
      return {
        state: 'ready',
        since,
        message: event.reset
          ? `the node was reset at ${clock(now)}: ${event.deployed.length} contracts redeployed`
          : `${event.deployed.length} missing contracts redeployed at ${clock(now)}`,
      }
    case 'chain.error':
      return { message: event.error.message }
  }
}
