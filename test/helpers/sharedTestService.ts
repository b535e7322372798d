import { rmSync } from 'node:fs'
import { startTestService, type TestService } from './startTestService'

let shared: Promise<TestService> | undefined

/**
 * The worker's shared service, for the files of the `integration` project (vitest.config.ts) whose tests only add
 * data of their own (a dApp per file, fresh owners and accounts) and leave the service as they found it: settings,
 * bundling mode, chain and mempool. A worker runs its files one after another and keeps their modules (isolate:
 * false), so the service started by the first such file serves the next ones. A file that changes settings, stops
 * or kills the chain, or counts what the whole service holds starts its own (startTestService) and disposes of it.
 * Started on first use from the run's chain template; stopped with the worker.
 */
export function getSharedTestService(): Promise<TestService> {
  shared ??= startTestService().then((service) => {
    stopWithWorker(service)
    return service
  })
  return shared
}

/**
 * vitest stops a worker with SIGTERM once it has no files left: its exit then kills the shared service's anvil (its
 * state is of no further use) and removes the data folder, so that no process or folder outlives the run.
 */
function stopWithWorker(service: TestService): void {
  process.once('exit', () => {
    const anvil = service.chain?.anvil?.pid()
    try {
      if (anvil) process.kill(anvil, 'SIGKILL')
    } catch {}
    rmSync(service.dataDir, { recursive: true, force: true })
  })
  process.once('SIGTERM', () => process.exit(0))
}
