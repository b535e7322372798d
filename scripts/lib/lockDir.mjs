// A lock between processes: a folder made with mkdir (atomic), holding the holder's pid. A lock whose holder died is
// taken over. Used where two steps of one test run would otherwise do the same slow work into the same place at once
// (the SDK client package's install, the Linux package both the packaging test and the console's build-path test read).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

function isRunning(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

/** Takes the lock at `dir` if free (or held by a dead process): true when this process now holds it. */
function tryTakeLockDir(dir) {
  const pidFile = path.join(dir, 'pid')
  try {
    mkdirSync(dir)
    writeFileSync(pidFile, String(process.pid))
    return { taken: true }
  } catch (error) {
    if (error.code !== 'EEXIST') throw error
  }
  const holder = Number(existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : Number.NaN)
  // A lock without a pid file is one being taken this instant; a dead holder's lock is stale.
  if (Number.isInteger(holder) && holder > 0 && !isRunning(holder)) {
    rmSync(dir, { recursive: true, force: true })
    return tryTakeLockDir(dir)
  }
  return { taken: false, holder }
}

/** Blocks (for synchronous scripts) until this process holds the lock at `dir`; `onWait(holderPid)` once if it waits. */
export function takeLockDirSync(dir, onWait = () => {}) {
  const sleeper = new Int32Array(new SharedArrayBuffer(4))
  let told = false
  for (;;) {
    const attempt = tryTakeLockDir(dir)
    if (attempt.taken) return
    if (!told) onWait(attempt.holder)
    told = true
    Atomics.wait(sleeper, 0, 0, 500)
  }
}

/** Resolves once this process holds the lock at `dir`; `onWait(holderPid)` once if it waits. */
export async function takeLockDir(dir, onWait = () => {}) {
  let told = false
  for (;;) {
    const attempt = tryTakeLockDir(dir)
    if (attempt.taken) return
    if (!told) onWait(attempt.holder)
    told = true
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

export function releaseLockDir(dir) {
  rmSync(dir, { recursive: true, force: true })
}
