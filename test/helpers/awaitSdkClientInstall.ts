import { existsSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * The sdk-clients project's setup file. `npm test` (scripts/test.mjs) starts the integration run while the SDK client
 * package may still be installing beside it, with the SDK client files last in that run (vitest runs a group's
 * projects in the order of their names): each of those files waits here for the install's outcome, which
 * scripts/test.mjs writes to the file that OPSTATION_SDK_CLIENT_INSTALL_STATUS names ("installed", or what failed).
 * Run any other way (`npx vitest --project sdk-clients`), the package is installed already and nothing waits.
 */
export const SDK_CLIENT_INSTALL_STATUS_ENV = 'OPSTATION_SDK_CLIENT_INSTALL_STATUS'

/** Resolves once the install ended well; throws with its log's place when it failed or took longer than `timeoutMs`. */
export async function awaitSdkClientInstall(statusFile: string, timeoutMs = 15 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!existsSync(statusFile)) {
    if (Date.now() > deadline)
      throw new Error(`the SDK client test package was still installing after ${timeoutMs / 60_000} minutes`)
    await sleep(250)
  }
  const status = readFileSync(statusFile, 'utf8').trim()
  if (status !== 'installed')
    throw new Error(
      `the SDK client test package did not install (${status}): see test-results/sdk-clients.log`,
    )
}

const statusFile = process.env[SDK_CLIENT_INSTALL_STATUS_ENV]
if (statusFile) await awaitSdkClientInstall(statusFile)
