import { describe, expect, it } from 'vitest'
import { openStore, type Store } from '../../../src/main/service/store/openStore'
import {
  captureStore,
  resetStoreActivity,
  restoreStore,
} from '../../../src/main/service/store/storeSnapshots'
import type { Dapp } from '../../../src/shared/api/dapps'
import type { SmartContract } from '../../../src/shared/api/smartContracts'
import { makeTempDir } from '../../helpers/makeTempDir'
import { hash, makeUserOperationRecord } from './makeUserOperationRecord'

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`

function dapp(id: string, chainId: number, minute: number): Dapp {
  return {
    id,
    accountId: 'account',
    name: id,
    chainId,
    apiKey: `key-${id}`,
    type: 'HYBRID',
    version: '1.1.0',
    active: true,
    paymasterId: null,
    gasTanksFunded: ['0.6'],
    policies: { limits: [], validAfter: null, validUntil: null, blockWindow: null, premiumPercentage: 10 },
    createdAt: at(minute),
  }
}

function contract(id: string, dappId: string, minute: number): SmartContract {
  return {
    id,
    dappId,
    name: id,
    address: `0x${'c'.repeat(40)}`,
    abi: '[]',
    whitelistedMethods: [],
    methods: [],
    createdAt: at(minute),
    updatedAt: at(minute),
  }
}

/** An operation record numbered `seq` on `chainId`. */
function operation(seq: number, chainId: number) {
  return { ...makeUserOperationRecord(seq), userOpHash: hash('a', seq), chainId }
}

/** A store with a dApp, a contract and an operation on each of chains 1 and 2. */
async function storeOfTwoChains(): Promise<Store> {
  const store = await openStore({ dataDir: await makeTempDir('opstation-snapshots-') })
  await store.update((doc) => {
    doc.dapps.push(dapp('one', 1, 0), dapp('two', 2, 1))
    doc.smartContracts.push(contract('c-one', 'one', 0), contract('c-two', 'two', 1))
    doc.userOperations.push(operation(0, 1), operation(1, 2))
    doc.tokenPrices.push({
      tokenAddress: `0x${'e'.repeat(40)}`,
      usdPrice: '1',
      logoUrl: null,
      updatedAt: at(0),
    })
  })
  return store
}

/** What happens on both chains after a snapshot of chain 2: a dApp, a contract and an operation each. */
async function changeBothChains(store: Store) {
  await store.update((doc) => {
    doc.dapps.push(dapp('one-later', 1, 2), dapp('two-later', 2, 3))
    doc.smartContracts.push(contract('c-one-later', 'one-later', 2), contract('c-two-later', 'two-later', 3))
    doc.userOperations.push(operation(2, 1), operation(3, 2))
    doc.tokenPrices[0] = { ...(doc.tokenPrices[0] as (typeof doc.tokenPrices)[number]), usdPrice: '2' }
  })
}

describe("a chain's store snapshot in a service of several chains", () => {
  it("takes only the chain's records back, keeping the other chain's made since and what belongs to no chain", async () => {
    const store = await storeOfTwoChains()
    const state = captureStore(store, 2)
    await changeBothChains(store)
    await restoreStore(store, state, 2)
    expect(store.data.dapps.map((d) => d.id)).toEqual(['one', 'two', 'one-later'])
    expect(store.data.smartContracts.map((c) => c.id)).toEqual(['c-one', 'c-two', 'c-one-later'])
    expect(store.data.userOperations.map((r) => [r.seq, r.chainId])).toEqual([
      [0, 1],
      [1, 2],
      [2, 1],
    ])
    expect(store.data.tokenPrices[0]?.usdPrice).toBe('2')
  })

  it('takes the whole document back in a service of one chain, as it always has', async () => {
    const store = await storeOfTwoChains()
    const state = captureStore(store)
    await changeBothChains(store)
    await restoreStore(store, state)
    expect(store.data.dapps.map((d) => d.id)).toEqual(['one', 'two'])
    expect(store.data.userOperations.map((r) => r.seq)).toEqual([0, 1])
    expect(store.data.tokenPrices[0]?.usdPrice).toBe('1')
  })

  it("empties only the chain's activity on a reset, and its gas tanks' funding", async () => {
    const store = await storeOfTwoChains()
    await resetStoreActivity(store, 2, 2)
    expect(store.data.userOperations.map((r) => r.chainId)).toEqual([1])
    expect(store.data.dapps.map((d) => [d.id, d.gasTanksFunded])).toEqual([
      ['one', ['0.6']],
      ['two', []],
    ])
  })
})
