import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  formatLog,
  type Hex,
  numberToHex,
  parseAbiItem,
  parseEventLogs,
  type RpcLog,
} from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import type { Chain } from '../../../src/main/service/chain'
import { silentLogger } from '../../../src/main/service/log/logger'
import { createUsageTracker } from '../../../src/main/service/policy/trackSponsorshipUsage'
import { openStore, type Store } from '../../../src/main/service/store/openStore'

const ENTRY_POINT: Address = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'
const PAYMASTER: Address = '0x00000f79B7FaF42EEBAdbA19aCc07cD08Af44789'
const PAYMASTER_ID: Address = '0x1111111111111111111111111111111111111111'
const SENDER: Address = '0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90'
const userOperationEvent = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)
const deposited = parseAbiItem('event Deposited(address indexed account, uint256 totalDeposit)')
const gasBalanceDeducted = parseAbiItem(
  'event GasBalanceDeducted(address indexed _paymasterId, uint256 indexed _charge)',
)

/**
 * A bundle's logs in block `block`, as a node returns them: the EntryPoint's deposit (read by no one here), the
 * paymaster's charge, then the operation's event.
 */
function bundleLogs(userOpHash: Hex, block: bigint): RpcLog[] {
  const common = {
    blockHash: `0x${'b'.repeat(64)}` as Hex,
    blockNumber: numberToHex(block),
    transactionHash: `0x${userOpHash.slice(2, 10).padEnd(64, '0')}` as Hex,
    transactionIndex: '0x0',
    removed: false,
  }
  return [
    {
      ...common,
      address: ENTRY_POINT,
      logIndex: '0x0',
      topics: encodeEventTopics({ abi: [deposited], args: { account: SENDER } }),
      data: encodeAbiParameters([{ type: 'uint256' }], [1n]),
    },
    {
      ...common,
      address: PAYMASTER,
      logIndex: '0x1',
      topics: encodeEventTopics({
        abi: [gasBalanceDeducted],
        args: { _paymasterId: PAYMASTER_ID, _charge: 500n },
      }),
      data: '0x',
    },
    {
      ...common,
      address: ENTRY_POINT,
      logIndex: '0x2',
      topics: encodeEventTopics({
        abi: [userOperationEvent],
        args: { userOpHash, sender: SENDER, paymaster: PAYMASTER },
      }),
      data: encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }],
        [0n, true, 500n, 100_000n],
      ),
    },
  ] as RpcLog[]
}

/**
 * A chain (v0.6 contracts only) whose head is `head` and whose node holds the logs of the bundles `mine` added; counts
 * the block reads by number.
 */
function fakeChain(head: bigint) {
  const blockReads: bigint[] = []
  const logs: RpcLog[] = []
  const publicClient = {
    async getBlock(args: { blockTag?: string; blockNumber?: bigint }) {
      if (args.blockNumber !== undefined) blockReads.push(args.blockNumber)
      const number = args.blockNumber ?? head
      return { number, timestamp: 1_700_000_000n + number }
    },
    async getLogs(args: { address: Address; fromBlock: bigint; toBlock: bigint }) {
      const inRange = logs
        .filter((l) => l.address.toLowerCase() === args.address.toLowerCase())
        .filter(
          (l) =>
            BigInt(l.blockNumber as Hex) >= args.fromBlock && BigInt(l.blockNumber as Hex) <= args.toBlock,
        )
        .map((l) => formatLog(l))
      return parseEventLogs({
        abi: args.address === ENTRY_POINT ? [userOperationEvent] : [gasBalanceDeducted],
        logs: inRange,
      })
    },
  }
  const chain = {
    kind: 'embedded',
    chainId: 31337,
    addresses: { entryPoint: ENTRY_POINT, verifyingPaymaster: PAYMASTER },
    missing: [
      'entryPointV07',
      'verifyingPaymasterV07',
      'entryPointV08',
      'verifyingPaymasterV08',
      'entryPointV09',
      'verifyingPaymasterV09',
    ],
    mismatched: [],
    publicClient,
  } as unknown as Chain
  return {
    chain,
    blockReads,
    /** A bundle of one sponsored operation mined in a new block; its logs. */
    mine(userOpHash: Hex): RpcLog[] {
      head++
      const bundle = bundleLogs(userOpHash, head)
      logs.push(...bundle)
      return bundle
    },
  }
}

const dirs: string[] = []
async function storeWithDapp(): Promise<{ store: Store; writes: () => number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'opstation-usage-'))
  dirs.push(dir)
  const store = await openStore({ dataDir: dir })
  await store.update((doc) => {
    doc.dapps.push({ id: 'd1', chainId: 31337, paymasterId: PAYMASTER_ID } as (typeof doc.dapps)[number])
  })
  let writes = 0
  const update = store.update.bind(store)
  const counted: Store = Object.assign(Object.create(store), {
    update: (change: Parameters<Store['update']>[0]) => {
      writes++
      return update(change)
    },
  })
  return { store: counted, writes: () => writes }
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

/** A tracker on a store with one dApp and a chain at block 4, after its first sync (its cursor at the head). */
async function startTracker() {
  const { store, writes } = await storeWithDapp()
  const { chain, blockReads, mine } = fakeChain(4n)
  const tracker = createUsageTracker({ store, getChain: () => chain, log: silentLogger })
  await tracker.sync()
  return { store, writes, blockReads, mine, tracker }
}

describe('sponsorship usage sync', () => {
  it('counts an operation it finds in the logs, with its block time, in one store write', async () => {
    const { store, writes, blockReads, mine, tracker } = await startTracker()
    const hash = `0x${'a'.repeat(64)}` as Hex
    mine(hash)
    await tracker.sync()
    expect(store.data.sponsorshipUsage).toMatchObject([
      {
        userOpHash: hash,
        dappId: 'd1',
        chainId: 31337,
        gasCostWei: '500',
        blockNumber: 5,
        minedAt: 1_700_000_005,
      },
    ])
    expect(blockReads).toEqual([5n])
    expect(writes()).toBe(1)
  })

  it("leaves out what a mined bundle's receipt already counted: no block read, no store write", async () => {
    const { store, writes, blockReads, mine, tracker } = await startTracker()
    // The service mines a bundle and counts it from its receipt; the next sync scans the bundle's block.
    const hash = `0x${'c'.repeat(64)}` as Hex
    tracker.observeReceipt({ logs: mine(hash), blockTimestamp: numberToHex(1_700_000_005) })
    expect(store.data.sponsorshipUsage.map((u) => u.userOpHash)).toEqual([hash])
    await tracker.sync()
    expect(store.data.sponsorshipUsage).toMatchObject([
      { userOpHash: hash, blockNumber: 5, minedAt: 1_700_000_005 },
    ])
    expect(blockReads).toEqual([])
    expect(writes()).toBe(0)
  })

  it('counts the operations of every EntryPoint version in one receipt, each with its own charge', async () => {
    const { store } = await storeWithDapp()
    await store.update((doc) => {
      doc.dapps.push({ id: 'd2', chainId: 31337, paymasterId: SENDER } as (typeof doc.dapps)[number])
    })
    const ENTRY_POINT_V07: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
    const PAYMASTER_V07: Address = '0x2222222222222222222222222222222222222222'
    const gasTankCharged = parseAbiItem(
      'event GasTankCharged(address indexed paymasterId, address indexed sender, uint256 charge)',
    )
    // A chain running v0.6 and v0.7 (v0.8 and v0.9 at addresses where this receipt has no logs).
    const chain = {
      kind: 'embedded',
      chainId: 31337,
      addresses: {
        entryPoint: ENTRY_POINT,
        verifyingPaymaster: PAYMASTER,
        entryPointV07: ENTRY_POINT_V07,
        verifyingPaymasterV07: PAYMASTER_V07,
        entryPointV08: '0x3333333333333333333333333333333333333333',
        verifyingPaymasterV08: '0x4444444444444444444444444444444444444444',
        entryPointV09: '0x5555555555555555555555555555555555555555',
        verifyingPaymasterV09: '0x6666666666666666666666666666666666666666',
      },
      missing: [],
      mismatched: [],
    } as unknown as Chain
    const tracker = createUsageTracker({ store, getChain: () => chain, log: silentLogger })
    const v06 = `0x${'d'.repeat(64)}` as Hex
    const v07 = `0x${'e'.repeat(64)}` as Hex
    const [v07Tx] = bundleLogs(v07, 6n)
    const v07Logs = [
      {
        ...v07Tx,
        address: PAYMASTER_V07,
        logIndex: '0x3',
        topics: encodeEventTopics({ abi: [gasTankCharged], args: { paymasterId: SENDER, sender: SENDER } }),
        data: encodeAbiParameters([{ type: 'uint256' }], [700n]),
      },
      {
        ...v07Tx,
        address: ENTRY_POINT_V07,
        logIndex: '0x4',
        topics: encodeEventTopics({
          abi: [userOperationEvent],
          args: { userOpHash: v07, sender: SENDER, paymaster: PAYMASTER_V07 },
        }),
        data: encodeAbiParameters(
          [{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }],
          [0n, true, 700n, 100_000n],
        ),
      },
    ] as RpcLog[]
    const logs = [...bundleLogs(v06, 6n), ...v07Logs].map((l) => ({
      ...l,
      transactionHash: v07Tx?.transactionHash,
    }))
    tracker.observeReceipt({ logs, blockTimestamp: numberToHex(1_700_000_006) })
    expect([...store.data.sponsorshipUsage].sort((a, b) => a.dappId.localeCompare(b.dappId))).toMatchObject([
      { userOpHash: v06, dappId: 'd1', paymasterId: PAYMASTER_ID, gasCostWei: '500', blockNumber: 6 },
      { userOpHash: v07, dappId: 'd2', paymasterId: SENDER, gasCostWei: '700', blockNumber: 6 },
    ])
  })
})
