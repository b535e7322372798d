import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { NodeRequest } from '../../../src/main/service/chain/node/nodeRpcError'
import {
  createStackSnapshots,
  type StackPart,
} from '../../../src/main/service/chain/stack/createStackSnapshots'
import { type StackIntent, writeStackIntent } from '../../../src/main/service/chain/stack/stackIntent'
import { silentLogger } from '../../../src/main/service/log/logger'
import { makeTempDir } from '../../helpers/makeTempDir'

/**
 * A node with anvil's snapshot rules: ids count up; a revert uses up its id and the later ones and takes the storage
 * back (one word: the stack's marker); a reset empties it.
 */
function fakeNode() {
  const calls: string[] = []
  let next = 0
  const live = new Map<number, bigint>()
  let word = 0n
  const request: NodeRequest = async (method, params) => {
    calls.push(method)
    if (method === 'evm_snapshot') {
      live.set(next, word)
      return `0x${(next++).toString(16)}`
    }
    if (method === 'evm_revert') {
      const id = Number((params as string[])[0])
      const kept = live.get(id)
      if (kept === undefined) return false
      for (const later of [...live.keys()]) if (later >= id) live.delete(later)
      word = kept
      return true
    }
    if (method === 'anvil_reset') word = 0n
    if (method === 'anvil_setStorageAt') word = BigInt((params as string[])[2] as string)
    if (method === 'eth_getStorageAt') return `0x${word.toString(16).padStart(64, '0')}`
    return null
  }
  return { request, calls, word: () => word }
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

  describe('with an intent record (a revert or a reset is one durable step)', () => {
    /** A part whose state is on disk (the store): its captured number is kept in the intent record. */
    const durablePart = (name: string, events: string[]) => {
      const counter = counterPart(name, events)
      const part: StackPart<number> = {
        ...counter.part,
        durable: {
          save: (state) => JSON.stringify({ value: state }),
          load: (saved) => (saved as { value: number }).value,
          reset: async () => void events.push(`${name} reset on disk`),
        },
      }
      return { ...counter, part }
    }

    it("marks the chain and writes the intent (each durable part's state) before the chain goes back, and removes it once every part wrote its state", async () => {
      const path = join(await makeTempDir('opstation-intent-'), 'stack-intent.json')
      const node = fakeNode()
      const seen: { method: string; intent?: StackIntent; word: bigint }[] = []
      const request: NodeRequest = async (method, params) => {
        if (method === 'evm_revert')
          seen.push({ method, intent: JSON.parse(readFileSync(path, 'utf8')), word: node.word() })
        return node.request(method, params)
      }
      const events: string[] = []
      const stack = createStackSnapshots({ request, log: silentLogger, intentPath: path })
      const store = durablePart('store', events)
      stack.register(store.part)
      stack.register(counterPart('console', events).part)
      store.set(3)
      const id = await stack.snapshot()
      store.set(4)
      expect(await stack.revert(id)).toBe(true)
      const [atRevert] = seen
      expect(atRevert?.intent).toMatchObject({
        kind: 'revert',
        method: 'evm_revert',
        id,
        parts: { store: { value: 3 } },
      })
      expect(atRevert?.word).toBe(BigInt(atRevert?.intent?.token as string))
      expect(store.get()).toBe(3)
      expect(existsSync(path)).toBe(false)
      // The revert took the mark away with the rest of the chain's state since the snapshot.
      expect(node.word()).toBe(0n)
    })

    it('clears the mark and removes the intent when the node does not go back (an id it does not know)', async () => {
      const path = join(await makeTempDir('opstation-intent-'), 'stack-intent.json')
      const node = fakeNode()
      const stack = createStackSnapshots({ request: node.request, log: silentLogger, intentPath: path })
      stack.register(durablePart('store', []).part)
      const id = await stack.snapshot()
      await stack.revert(id)
      // Taken through the stack, then used up at the node by another revert: the stack still keeps its states.
      const again = await stack.snapshot()
      await node.request('evm_revert', [again])
      expect(await stack.revert(again)).toBe(false)
      expect(node.word()).toBe(0n)
      expect(existsSync(path)).toBe(false)
    })

    it('at start, finishes a revert whose chain went back (the mark is gone): each durable part restored from the record, in order; the others left alone', async () => {
      const path = join(await makeTempDir('opstation-intent-'), 'stack-intent.json')
      writeStackIntent(path, {
        kind: 'revert',
        method: 'evm_revert',
        id: '0x0',
        token: `0x${'ab'.repeat(32)}`,
        parts: { store: '{"value":3}', bundler: '{"value":30}' },
      })
      const events: string[] = []
      const stack = createStackSnapshots({ request: fakeNode().request, log: silentLogger, intentPath: path })
      let recovered = false
      void stack.recovered().then(() => {
        recovered = true
      })
      stack.register(durablePart('store', events).part)
      stack.register(counterPart('console', events).part)
      stack.register(durablePart('bundler', events).part)
      await stack.finishInterrupted()
      expect(events).toEqual(['store restored 3', 'bundler restored 30'])
      expect(existsSync(path)).toBe(false)
      await Promise.resolve()
      expect(recovered).toBe(true)
    })

    it('at start, undoes a revert whose chain never went back (the mark is still there): no part restored, the mark cleared', async () => {
      const path = join(await makeTempDir('opstation-intent-'), 'stack-intent.json')
      const node = fakeNode()
      const token = `0x${'cd'.repeat(32)}` as const
      await node.request('anvil_setStorageAt', ['0x', '0x0', token])
      writeStackIntent(path, {
        kind: 'revert',
        method: 'evm_revert',
        id: '0x0',
        token,
        parts: { store: '{"value":3}' },
      })
      const events: string[] = []
      const stack = createStackSnapshots({ request: node.request, log: silentLogger, intentPath: path })
      stack.register(durablePart('store', events).part)
      await stack.finishInterrupted()
      expect(events).toEqual([])
      expect(node.word()).toBe(0n)
      expect(existsSync(path)).toBe(false)
    })

    it('at start, finishes a reset whose chain was reset: each durable part writes its first start', async () => {
      const path = join(await makeTempDir('opstation-intent-'), 'stack-intent.json')
      writeStackIntent(path, {
        kind: 'reset',
        method: 'anvil_reset',
        token: `0x${'ef'.repeat(32)}`,
        parts: {},
      })
      const events: string[] = []
      const stack = createStackSnapshots({ request: fakeNode().request, log: silentLogger, intentPath: path })
      stack.register(durablePart('store', events).part)
      stack.register(counterPart('console', events).part)
      await stack.finishInterrupted()
      expect(events).toEqual(['store reset on disk'])
      expect(existsSync(path)).toBe(false)
    })
  })
})
