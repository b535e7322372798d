import { readdir, readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import { type Address, createPublicClient, defineChain, type Hex, http, numberToHex } from 'viem'
import { createBundlerClient, entryPoint06Abi, entryPoint06Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'
import { rpcOverHttp as rpc } from '../../helpers/rpcOverHttp'
import { type SpawnedCli, spawnCli } from '../../helpers/spawnCli'
import { requestJson, seedWithChainTemplate, startTestService } from '../../helpers/startTestService'
import { createSimpleAccountClient, randomAddress, waitFor } from '../bundler/bundlerTestKit'

/** The chain keeps its last 64 blocks (the least OPSTATION_HISTORY_BLOCKS takes) and compacts 256 blocks beyond. */
const HISTORY = 64
const env = { ...process.env, OPSTATION_HISTORY_BLOCKS: String(HISTORY) }

async function start(dataDir: string): Promise<SpawnedCli> {
  return spawnCli(['--port', '0', '--data-dir', dataDir, '--unsafe'], { env, timeoutMs: 90_000 })
}

/** What a client reads of one operation: its receipt, the operation, its activity record. */
async function readOperation(ready: Record<string, any>, hash: Hex) {
  const activity = await requestJson(`${ready.dashboardUrl}/console/api/user-operations/${hash}`, {
    headers: { authToken: ready.authToken },
  })
  return {
    receipt: await rpc(ready.bundlerUrl, 'eth_getUserOperationReceipt', [hash]),
    operation: await rpc(ready.bundlerUrl, 'eth_getUserOperationByHash', [hash]),
    activity: activity.status === 200 ? activity.body.data : activity.status,
  }
}

/**
 * The chain as its accounts see it: the head, a recipient's balance, the account's balance and EntryPoint nonce
 * (of the nonce key its operation used: viem picks one per operation).
 */
async function readChain(rpcUrl: string, account: Address, recipient: Address, nonceKey: bigint) {
  const chain = defineChain({
    id: 31337,
    name: 'history test',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const client = createPublicClient({ chain, transport: http(rpcUrl) })
  const head = await client.getBlock({ blockTag: 'latest' })
  return {
    head: { number: head.number, hash: head.hash, timestamp: head.timestamp },
    recipientBalance: await client.getBalance({ address: recipient }),
    accountBalance: await client.getBalance({ address: account }),
    nonce: await client.readContract({
      address: entryPoint06Address,
      abi: entryPoint06Abi,
      functionName: 'getNonce',
      args: [account, nonceKey],
    }),
  }
}

async function bundlerFor(ready: Record<string, any>, owner: ReturnType<typeof privateKeyToAccount>) {
  const chain = defineChain({
    id: 31337,
    name: 'history test',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [ready.rpcUrl] } },
  })
  const client = createPublicClient({ chain, transport: http(ready.rpcUrl) })
  const account = await toSimpleSmartAccount({
    client,
    owner,
    entryPoint: { address: entryPoint06Address, version: '0.6' },
  })
  return createBundlerClient({ client, account, transport: http(ready.bundlerUrl), pollingInterval: 50 })
}

describe('a chain used for a long time keeps a bounded history', () => {
  it("after its history is compacted and the service restarted, an old operation's receipt, operation and activity are served as before, the head, balances and nonces are intact, and new operations go through", async () => {
    const dataDir = await makeTempDir('opstation-history-')
    await seedWithChainTemplate(dataDir)
    const owner = privateKeyToAccount(generatePrivateKey())
    let service = await start(dataDir)
    try {
      const bundler = await bundlerFor(service.ready, owner)
      const account = bundler.account?.address as Address
      await rpc(service.ready.rpcUrl, 'anvil_setBalance', [account, numberToHex(10n ** 20n)])
      const recipient = randomAddress()
      const hash = await bundler.sendUserOperation({ calls: [{ to: recipient, value: 7n }] })
      const mined = await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })
      const before = await readOperation(service.ready, hash)
      expect(before.receipt.receipt.transactionHash).toBe(mined.receipt.transactionHash)
      expect(before.activity.status).toBe('included')

      // The chain grows far past the history it keeps: the bundle's block leaves anvil at the next quiet moment.
      await rpc(service.ready.rpcUrl, 'anvil_mine', [numberToHex(HISTORY * 4 + 100)])
      const block = numberToHex(mined.receipt.blockNumber)
      await waitFor(
        async () =>
          (await rpc(service.ready.rpcUrl, 'eth_getBlockByNumber', [block, false])) === null ? true : null,
        60_000,
        100,
      )
      expect(
        await rpc(service.ready.rpcUrl, 'eth_getTransactionReceipt', [mined.receipt.transactionHash]),
      ).toBeNull()
      // The service serves them from its own history.
      expect(await readOperation(service.ready, hash)).toEqual(before)
      const nonceKey = mined.nonce >> 64n
      const chainBefore = await readChain(service.ready.rpcUrl, account, recipient, nonceKey)
      expect(chainBefore.recipientBalance).toBe(7n)
      expect(chainBefore.nonce).toBe(mined.nonce + 1n)

      service.child.kill('SIGTERM')
      expect(await service.exited).toBe(0)
      // The saved state holds the genesis block and the last 64, and only their transactions.
      const saved = JSON.parse(await readFile(path.join(dataDir, 'chain', 'anvil-state.json'), 'utf8'))
      const numbers = saved.blocks.map((b: { header: { number: string } }) => Number(b.header.number))
      expect(numbers.length).toBeLessThanOrEqual(HISTORY + 1)
      expect(numbers).toContain(0)
      expect(Math.max(...numbers)).toBe(Number(chainBefore.head.number))
      expect(Math.min(...numbers.filter((n: number) => n > 0))).toBeGreaterThan(
        Number(chainBefore.head.number) - HISTORY,
      )
      for (const t of saved.transactions) expect(numbers).toContain(t.block_number)

      service = await start(dataDir)
      expect(await readChain(service.ready.rpcUrl, account, recipient, nonceKey)).toEqual(chainBefore)
      expect(await readOperation(service.ready, hash)).toEqual(before)

      // New operations go through on the same account (its next nonce), in blocks after the old head.
      const again = await bundlerFor(service.ready, owner)
      const next = await again.sendUserOperation({ calls: [{ to: recipient, value: 5n }] })
      const nextMined = await again.waitForUserOperationReceipt({ hash: next, timeout: 30_000 })
      expect(nextMined.success).toBe(true)
      expect(nextMined.receipt.blockNumber).toBeGreaterThan(chainBefore.head.number)
      const after = await readChain(service.ready.rpcUrl, account, recipient, nextMined.nonce >> 64n)
      expect(after.recipientBalance).toBe(12n)
      expect(after.nonce).toBe(nextMined.nonce + 1n)
      expect(after.head.timestamp).toBeGreaterThanOrEqual(chainBefore.head.timestamp)
    } finally {
      if (service.child.exitCode === null) {
        service.child.kill('SIGTERM')
        await service.exited
      }
    }
  }, 300_000)

  it('operations mined before the history was kept (an older data folder) are added to it while the chain still holds them', async () => {
    let service = await startTestService({ unsafe: true })
    const { dataDir } = service
    const historyDir = path.join(dataDir, 'history')
    try {
      const { bundlerClient } = await createSimpleAccountClient(service)
      const hash = await bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] })
      await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
      await service.close()
      // A data folder from before: the store's records, no history.
      await rm(historyDir, { recursive: true, force: true })
      service = Object.assign(await startTestService({ dataDir, unsafe: true }), { dataDir })
      await waitFor(async () => {
        for (const file of await readdir(historyDir).catch(() => [] as string[])) {
          const text = await readFile(path.join(historyDir, file), 'utf8')
          if (text.includes(`"h":["${hash}"`)) return true
        }
        return null
      }, 30_000)
    } finally {
      await service.dispose()
    }
  }, 120_000)
})
