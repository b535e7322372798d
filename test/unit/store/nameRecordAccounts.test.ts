import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Address, Hex } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import type { Chain } from '../../../src/main/service/chain'
import { canonicalAddresses } from '../../../src/main/service/chain/constants'
import { nameRecordAccounts } from '../../../src/main/service/console/nameRecordAccounts'
import { openStore } from '../../../src/main/service/store/openStore'
import {
  openUserOperationLog,
  type UserOperationLog,
} from '../../../src/main/service/store/userOperations.repo'
import { hash, makeRecordToAdd } from './makeUserOperationRecord'

const SENDER: Address = `0x${'b'.repeat(40)}`
const ERC1967_IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
const SIMPLE_ACCOUNT_V06 = '0x8abb13360b87be5eeb1b98647a016add927a136c' // SimpleAccountFactory v0.6's implementation
const BICONOMY_V2 = canonicalAddresses.smartAccountImplementation
const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}` as Hex

/** A chain whose sender is an ERC-1967 proxy of `implementation` (or delegates by EIP-7702), counting its reads. */
function fakeChain() {
  const state = { code: '0x6080604052' as Hex, implementation: SIMPLE_ACCOUNT_V06 as string, away: false }
  const reads: string[] = []
  const publicClient = {
    async getCode({ address }: { address: Address }) {
      reads.push(`getCode ${address}`)
      if (state.away) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
      return state.code
    },
    async getStorageAt({ address, slot }: { address: Address; slot: Hex }) {
      reads.push(`getStorageAt ${address}`)
      return slot === ERC1967_IMPLEMENTATION_SLOT ? word(state.implementation) : word('0x')
    },
  }
  return { chain: { publicClient } as unknown as Chain, state, reads }
}

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

/** A log holding records 1..n of SENDER with no account type (as the bundler leaves an already deployed account's). */
async function logWithUnnamedRecords(n: number): Promise<{ log: UserOperationLog; storePath: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'opstation-names-'))
  dirs.push(dir)
  const store = await openStore({ dataDir: dir })
  const log = openUserOperationLog({ store, flushIntervalMs: 60_000 })
  for (let i = 1; i <= n; i++) {
    log.add(makeRecordToAdd(i))
  }
  return { log, storePath: store.path }
}

describe('nameRecordAccounts (account types named when the console shows records)', () => {
  it("names every unnamed record from its sender's implementation, reading each sender once, and keeps the name", async () => {
    const { log, storePath } = await logWithUnnamedRecords(3)
    const { chain, reads } = fakeChain()
    const page = await log.list({ limit: 10 })
    await nameRecordAccounts(page, chain, log)
    expect(page.map((r) => r.account)).toEqual([
      'SimpleAccount v0.6',
      'SimpleAccount v0.6',
      'SimpleAccount v0.6',
    ])
    expect(reads).toEqual([`getCode ${SENDER}`, `getStorageAt ${SENDER}`])
    // Kept in the record (its updatedAt untouched) and written with the log's next write: shown again, no reads.
    expect(log.get(hash('a', 2))).toMatchObject({
      account: 'SimpleAccount v0.6',
      updatedAt: page[1]?.updatedAt,
    })
    await nameRecordAccounts(await log.list({ limit: 10 }), chain, log)
    expect(reads).toHaveLength(2)
    await log.flush()
    const onDisk = JSON.parse(await readFile(storePath, 'utf8')).userOperations
    expect(onDisk.map((r: { account?: string }) => r.account)).toEqual(Array(3).fill('SimpleAccount v0.6'))
  })

  it('shows an upgrade or a new EIP-7702 delegation in the records first shown after it; earlier ones keep theirs', async () => {
    const { log } = await logWithUnnamedRecords(4)
    const { chain, state } = fakeChain()
    const first = log.get(hash('a', 1))!
    await nameRecordAccounts([first], chain, log)
    expect(first.account).toBe('SimpleAccount v0.6')
    state.implementation = BICONOMY_V2
    const second = log.get(hash('a', 2))!
    await nameRecordAccounts([first, second], chain, log)
    expect([first.account, second.account]).toEqual(['SimpleAccount v0.6', 'Biconomy Smart Account v2'])
    state.code = `0xef0100${canonicalAddresses.simple7702AccountV08.slice(2).toLowerCase()}`
    const third = log.get(hash('a', 3))!
    await nameRecordAccounts([third], chain, log)
    expect(third.account).toBe('Simple7702Account (EIP-7702)')
    state.code = `0xef0100${canonicalAddresses.simple7702AccountV09.slice(2).toLowerCase()}`
    const fourth = log.get(hash('a', 4))!
    await nameRecordAccounts([fourth], chain, log)
    expect(fourth.account).toBe('Simple7702Account v0.9 (EIP-7702)')
  })

  it('keeps null for an account the chain names no type of, and leaves records unnamed while the node is away', async () => {
    const { log } = await logWithUnnamedRecords(2)
    const { chain, state, reads } = fakeChain()
    state.away = true
    const [newer, older] = await log.list({ limit: 10 })
    await nameRecordAccounts([newer!], chain, log)
    expect(newer?.account).toBeUndefined()
    state.away = false
    state.implementation = `0x${'9'.repeat(40)}`
    await nameRecordAccounts([newer!, older!], chain, log)
    expect([newer?.account, older?.account]).toEqual([null, null])
    const before = reads.length
    await nameRecordAccounts([newer!, older!], chain, log)
    expect(reads).toHaveLength(before)
  })
})
