import type { StackPart } from '../chain/stack/createStackSnapshots'
import type { HistoryMark, UserOperationHistory } from '../store/userOperationHistory'
import type { UserOperationLog } from '../store/userOperations.repo'
import type { NonceTracker } from './admission/nonceTracker'
import type { BundleRunner } from './bundling/createBundleRunner'
import type { BundleScheduler } from './bundling/createBundleScheduler'
import type { Mempool, MempoolEntry } from './mempool/mempool'

/** What the bundler keeps of a stack snapshot: where the history ended, and each lane's mempool. */
type BundlerState = { history: HistoryMark | undefined; mempools: MempoolEntry[][] }

type StackLane = {
  mempool: Mempool
  nonces: NonceTracker
  runner: BundleRunner
  scheduler: BundleScheduler
}

/**
 * The bundler's part of a stack snapshot (chain/stack/createStackSnapshots.ts): while the stack is held no bundle is
 * built or sent and the records are not written; a snapshot keeps each lane's mempool and the history's end; a
 * revert puts them back (the records are the store document's, put back before), and forgets what was read from the
 * chain as it was (the nonces seen, the receipts kept, the executor's nonce, the gas prices). A reset empties them.
 */
export function createBundlerStackPart(p: {
  lanes: readonly StackLane[]
  userOperations: UserOperationLog
  history: UserOperationHistory
  forgetChainReads: () => void
}): StackPart<BundlerState> {
  const { lanes, userOperations, history } = p
  const restore = async (state: BundlerState) => {
    userOperations.reload()
    await history.truncateTo(state.history)
    for (const [i, lane] of lanes.entries()) {
      lane.mempool.clear()
      for (const entry of state.mempools[i] ?? []) lane.mempool.add({ ...entry, state: 'pending' })
      lane.nonces.forgetSeen()
      lane.nonces.mempoolChanged()
    }
    p.forgetChainReads()
  }
  return {
    name: 'bundler',
    async hold() {
      const releases = await Promise.all(lanes.map((lane) => lane.runner.hold()))
      releases.push(await userOperations.hold())
      return () => {
        for (const release of releases) release()
        for (const lane of lanes) lane.scheduler.scheduleAutoBundle()
      }
    },
    settle: () => userOperations.flush(),
    capture: async () => ({
      history: await history.mark(),
      mempools: lanes.map((lane) =>
        lane.mempool.entries().map((entry) => ({ ...entry, state: 'pending' as const })),
      ),
    }),
    restore,
    reset: () => restore({ history: undefined, mempools: [] }),
    // What a restart needs to finish a revert: where the history ended (the mempool comes back from the records).
    durable: {
      save: (state) => JSON.stringify({ history: state.history ?? null }),
      load: (saved) => ({
        history: (saved as { history: HistoryMark | null }).history ?? undefined,
        mempools: [],
      }),
    },
  }
}
