import { describe, expect, it } from 'vitest'
import type { NodeRequest } from '../../../src/main/service/chain/node/nodeRpcError'
import {
  createStackSnapshots,
  type StackPart,
} from '../../../src/main/service/chain/stack/createStackSnapshots'
import { silentLogger } from '../../../src/main/service/log/logger'

/** A node with anvil's snapshot rules: ids count up; a revert uses up its id and the later ones. */
function fakeNode() {
  const calls: string[] = []
  let next = 0
  const live = new Set<number>()
  const request: NodeRequest = async (method, params) => {
    calls.push(method)
    if (method === 'evm_snapshot') {
      live.add(next)
      return `0x${(next++).toString(16)}`
    }
    if (method === 'evm_revert') {
      const id = Number((params as string[])[0])
      if (!live.has(id)) return false
      for (const kept of [...live]) if (kept >= id) live.delete(kept)
      return true
    }
    return null
  }
  return { request, calls }
}

/** A part holding one number, telling what was done to it in order. */
function counterPart(name: string, events: string[]) {
  let value = 0
  const part: StackPart<number> = {
    name,
    async hold() {
      events.push(`${name} held`)
      return () => events.push(`${name} released`)
    },
    settle: async () => void events.push(`${name} settled`),
    capture: () => value,
    restore: (state) => {
      events.push(`${name} restored ${state}`)
      value = state
    },
    reset: () => {
      events.push(`${name} reset`)
      value = 0
    },
  }
  const set = (v: number) => {
    value = v
  }
  return { part, set, get: () => value }
}

describe('the stack snapshots', () => {
  it('captures every part under the node id and restores them in the order they registered, each held meanwhile', async () => {
    const node = fakeNode()
    const events: string[] = []
    const stack = createStackSnapshots({ request: node.request, log: silentLogger })
    const store = counterPart('store', events)
    const bundler = counterPart('bundler', events)
    stack.register(store.part)
    stack.register(bundler.part)
    store.set(1)
    bundler.set(10)
    const id = await stack.snapshot()
    expect(events).toEqual([
      'store held',
      'bundler held',
      'store settled',
      'bundler settled',
      'bundler released',
      'store released',
    ])
    store.set(2)
    bundler.set(20)
    events.length = 0
    expect(await stack.revert(id)).toBe(true)
    expect([store.get(), bundler.get()]).toEqual([1, 10])
    expect(events).toEqual([
      'store held',
      'bundler held',
      'store restored 1',
      'bundler restored 10',
      'bundler released',
      'store released',
    ])
  })

  it('uses up the id reverted to and the later ones, as anvil does; an unknown id changes nothing', async () => {
    const node = fakeNode()
    const events: string[] = []
    const stack = createStackSnapshots({ request: node.request, log: silentLogger })
    const store = counterPart('store', events)
    stack.register(store.part)
    const first = await stack.snapshot()
    store.set(5)
    const second = await stack.snapshot()
    expect(stack.ids()).toEqual([first, second])
    expect(await stack.revert(first)).toBe(true)
    expect(stack.ids()).toEqual([])
    store.set(7)
    expect(await stack.revert(second)).toBe(false)
    expect(await stack.revert('0x99')).toBe(false)
    expect(store.get()).toBe(7)
  })

  it('runs one operation at a time: a revert asked for during a snapshot waits for it', async () => {
    const node = fakeNode()
    const order: string[] = []
    const stack = createStackSnapshots({ request: node.request, log: silentLogger })
    let finishCapture = () => {}
    stack.register<number>({
      name: 'slow',
      capture: () =>
        new Promise<number>((resolve) => {
          order.push('capture starts')
          finishCapture = () => {
            order.push('capture ends')
            resolve(0)
          }
        }),
      restore: () => void order.push('restore'),
      reset: () => {},
    })
    const snapshot = stack.snapshot()
    await new Promise((resolve) => setTimeout(resolve, 10))
    const revert = stack.revert('0x0')
    await new Promise((resolve) => setTimeout(resolve, 10))
    finishCapture()
    await snapshot
    expect(await revert).toBe(true)
    expect(order).toEqual(['capture starts', 'capture ends', 'restore'])
  })

  it('resets the node, then lets the contracts be deployed again, then every part, and forgets every snapshot', async () => {
    const node = fakeNode()
    const events: string[] = []
    const stack = createStackSnapshots({ request: node.request, log: silentLogger })
    stack.register(counterPart('store', events).part)
    await stack.snapshot()
    events.length = 0
    await stack.reset([], 'anvil_reset', async () => void events.push('redeployed'))
    expect(node.calls.at(-1)).toBe('anvil_reset')
    expect(events).toEqual(['store held', 'redeployed', 'store reset', 'store released'])
    expect(stack.ids()).toEqual([])
  })
})
