import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createFinishWaiters } from '../../../src/main/service/bundler/receipts/createFinishWaiters'

const A = `0x${'aa'.repeat(32)}`
const B = `0x${'bb'.repeat(32)}`

/** Settles `promise` on a flag, so a test can see whether it resolved without awaiting it. */
function track(promise: Promise<void>) {
  const state = { done: false }
  void promise.then(() => {
    state.done = true
  })
  return state
}

describe('finish waiters (receipt queries waiting for an operation to be mined)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('wakes every waiter of an operation when it finishes, and only those', async () => {
    const waiters = createFinishWaiters()
    const first = track(waiters.waitForFinish(A, 1000))
    const second = track(waiters.waitForFinish(A, 1000))
    const other = track(waiters.waitForFinish(B, 1000))
    waiters.finished(A)
    await vi.advanceTimersByTimeAsync(0)
    expect([first.done, second.done, other.done]).toEqual([true, true, false])
  })

  it('gives up after its time, and a later finish of the same operation is harmless', async () => {
    const waiters = createFinishWaiters()
    const waiting = track(waiters.waitForFinish(A, 1000))
    await vi.advanceTimersByTimeAsync(999)
    expect(waiting.done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(waiting.done).toBe(true)
    expect(() => waiters.finished(A)).not.toThrow()
  })

  it('lets a waiter that timed out leave the others of its operation waiting', async () => {
    const waiters = createFinishWaiters()
    const short = track(waiters.waitForFinish(A, 10))
    const long = track(waiters.waitForFinish(A, 1000))
    await vi.advanceTimersByTimeAsync(10)
    expect([short.done, long.done]).toEqual([true, false])
    waiters.finished(A)
    await vi.advanceTimersByTimeAsync(0)
    expect(long.done).toBe(true)
  })

  it('wakes everyone on close (the bundler is stopping)', async () => {
    const waiters = createFinishWaiters()
    const a = track(waiters.waitForFinish(A, 60_000))
    const b = track(waiters.waitForFinish(B, 60_000))
    waiters.close()
    await vi.advanceTimersByTimeAsync(0)
    expect([a.done, b.done]).toEqual([true, true])
  })
})
