import { describe, expect, it } from 'vitest'
import { createConcurrencyLimit } from '../../../src/main/service/util/createConcurrencyLimit'

describe('createConcurrencyLimit', () => {
  it('runs at most the limit at once, the rest in arrival order, and keeps going after a task fails', async () => {
    const limit = createConcurrencyLimit(2)
    let running = 0
    let most = 0
    const started: number[] = []
    const task = (n: number) => async () => {
      started.push(n)
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 5))
      running--
      if (n === 1) throw new Error('task 1 failed')
      return n
    }
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => limit(task(n))))
    expect(most).toBe(2)
    expect(started).toEqual([1, 2, 3, 4, 5])
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([
      'failed',
      2,
      3,
      4,
      5,
    ])
  })
})
