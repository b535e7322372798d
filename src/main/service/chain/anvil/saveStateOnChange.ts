import type { Logger } from '../../log'
import { getDevStateVersion } from '../node/requestRpc'
import { dumpState } from './dumpState'

export type StateSaver = { stop: () => Promise<void> }

/**
 * Saves the embedded chain's state shortly after it changes: every `intervalMs` it looks at the block number
 * (and at dev methods such as anvil_setBalance that change state without a block) and dumps when either moved.
 * At most one dump runs at a time, so a busy chain is saved at most every `intervalMs` plus one dump.
 */
export function startStateSaver(p: {
  getRpcUrl: () => string
  statePath: string
  log: Logger
  intervalMs?: number
}): StateSaver {
  const intervalMs = p.intervalMs ?? 250
  let lastBlock: string | undefined
  let lastDevVersion = getDevStateVersion()
  let running: Promise<void> | undefined
  let stopped = false

  const tick = async () => {
    try {
      const res = await fetch(p.getRpcUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        signal: AbortSignal.timeout(2000),
      })
      const block = ((await res.json()) as { result?: string }).result
      const devVersion = getDevStateVersion()
      if (lastBlock === undefined) lastBlock = block
      if (block !== lastBlock || devVersion !== lastDevVersion) {
        await dumpState(p.getRpcUrl(), p.statePath)
        lastBlock = block
        lastDevVersion = devVersion
      }
    } catch (err) {
      // anvil restarting or busy: the next tick tries again.
      p.log.debug({ err }, 'chain state save skipped')
    }
  }

  const timer = setInterval(() => {
    if (running || stopped) return
    running = tick().finally(() => {
      running = undefined
    })
  }, intervalMs)
  timer.unref()

  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
