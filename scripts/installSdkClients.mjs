// The SDK client tests (test/sdk-clients) drive the service with client libraries whose dependency trees cannot
// share the app's (peer conflicts, a second @noble/curves major): they live in their own test-only package, installed
// here when its lock file changed since the last install. `npm test` calls it; `.ci/run` runs it (`node
// scripts/installSdkClients.mjs`) beside the main install, lint and typecheck, since it is mostly download and disk.
// Two at once (CI's early install and npm test's check) take turns: the second waits for the first, then finds its
// stamp, rather than running a second `npm ci` into the same node_modules.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { releaseLockDir, takeLockDirSync } from './lib/lockDir.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const SDK_CLIENTS_DIR = path.join(root, 'test', 'sdk-clients')

const INSTALL_LOCK = path.join(SDK_CLIENTS_DIR, '.install-lock')

/** Installs test/sdk-clients with `npm ci` unless its node_modules came from the same lock file; false if npm failed. */
export function installSdkClients({ log = (line) => process.stdout.write(line) } = {}) {
  takeLockDirSync(INSTALL_LOCK, (holder) =>
    log(`\n── waiting for another install of the SDK client test package (pid ${holder})\n`),
  )
  try {
    return installUnlessStamped(log)
  } finally {
    releaseLockDir(INSTALL_LOCK)
  }
}

function installUnlessStamped(log) {
  const lock = readFileSync(path.join(SDK_CLIENTS_DIR, 'package-lock.json'))
  const stamp = path.join(SDK_CLIENTS_DIR, 'node_modules', '.opstation-lock-hash')
  const hash = createHash('sha256').update(lock).digest('hex')
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return true
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  log('\n── installing the SDK client test package (test/sdk-clients)\n')
  const install = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
    cwd: SDK_CLIENTS_DIR,
    stdio: 'inherit',
  })
  if (install.status !== 0) return false
  writeFileSync(stamp, hash)
  return true
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(installSdkClients() ? 0 : 1)
