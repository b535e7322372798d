import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { concat, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalAddresses, getGasTankBalance } from '../../../src/main/service/chain'
import { findFreePort } from '../../../src/main/service/chain/anvil/findFreePort'
import { buildDeploymentPlan } from '../../../src/main/service/chain/deploy/buildDeploymentPlan'
import { runCliToExit } from '../../helpers/spawnCli'
import { startPlainAnvil } from '../../helpers/startPlainAnvil'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { createDapp, sendSponsoredV07 } from '../paymaster/paymasterTestKit'

/** The "remote network": a plain anvil on Base's chain id, with some of the contracts already deployed. */
const REMOTE_CHAIN_ID = 8453
/** anvil's first dev account (unlocked on the remote). */
const REMOTE_SENDER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
/** Code no build of ours has: the network's own contract at a canonical address. */
const NETWORK_CODE = '0x60016000526001601ff3'

const folder = mkdtempSync(path.join(os.tmpdir(), 'opstation-fork-'))
const cleanups: (() => Promise<void> | void)[] = []
let remote: Awaited<ReturnType<typeof startPlainAnvil>>
/** The remote's head when the fork service first started: the block the fork is pinned to. */
let forkBlock: number

const call = async <T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> => {
  const res = await requestJson(url, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method, params } })
  if (res.body.error) throw new Error(`${method}: ${res.body.error.message}`)
  return res.body.result as T
}

/** Deploys a planned contract on the remote the way it got to a real network: through the CREATE2 deployer. */
async function deployOnRemote(name: string) {
  const item = buildDeploymentPlan({ canSetCode: true, owner: REMOTE_SENDER, signer: REMOTE_SENDER }).find(
    (c) => c.name === name,
  )
  if (item?.via !== 'create2') throw new Error(`${name} is not a CREATE2 contract`)
  const hash = await call<Hex>(remote.url, 'eth_sendTransaction', [
    { from: REMOTE_SENDER, to: canonicalAddresses.create2Deployer, data: concat([item.salt, item.initCode]) },
  ])
  let receipt: { status: string } | null = null
  for (let i = 0; i < 200 && !receipt; i++) {
    receipt = await call<{ status: string } | null>(remote.url, 'eth_getTransactionReceipt', [hash])
    if (!receipt) await new Promise((r) => setTimeout(r, 25))
  }
  expect(receipt?.status).toBe('0x1')
  expect(await call(remote.url, 'eth_getCode', [item.address, 'latest'])).not.toBe('0x')
  return item.address
}

async function readStatus(service: TestService) {
  const res = await requestJson(`${service.baseUrl}/console/api/status`, {
    headers: { authToken: service.authToken() },
  })
  return res.body
}

beforeAll(async () => {
  remote = await startPlainAnvil(REMOTE_CHAIN_ID, { args: ['--hardfork', 'prague'] })
  cleanups.push(() => remote.stop())
  // What the network already has: EntryPoint v0.7 and its SimpleAccountFactory (anvil has the CREATE2 deployer at
  // genesis), a contract of its own at v0.8's Simple7702Account address and at Biconomy's token paymaster address.
  await deployOnRemote('entryPointV07')
  await deployOnRemote('simpleAccountFactoryV07')
  await call(remote.url, 'anvil_setCode', [canonicalAddresses.tokenPaymaster, NETWORK_CODE])
  const simple7702 = buildDeploymentPlan({
    canSetCode: true,
    owner: REMOTE_SENDER,
    signer: REMOTE_SENDER,
  }).find((c) => c.name === 'simple7702AccountV08')!.address
  await call(remote.url, 'anvil_setCode', [simple7702, NETWORK_CODE])
  await call(remote.url, 'anvil_mine', ['0x3'])
  forkBlock = Number(await call<Hex>(remote.url, 'eth_blockNumber'))
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(folder, { recursive: true, force: true })
})

describe('fork mode (--fork-url)', () => {
  const dataDir = path.join(folder, 'fork')

  it("uses the network's contracts, deploys the rest, follows its chain id, sponsors an operation, and comes back the same after a restart", async () => {
    const first = await startTestService({ dataDir, forkUrl: remote.url })
    cleanups.push(() => first.close())
    const chain = first.chain!
    expect(chain.kind).toBe('embedded')
    expect(chain.chainId).toBe(REMOTE_CHAIN_ID)
    expect(first.info().chainId).toBe(REMOTE_CHAIN_ID)
    expect(chain.fork).toEqual({ url: remote.url, block: forkBlock })
    // Used as they are: not deployed again.
    expect(chain.deployed).not.toContain('create2Deployer')
    expect(chain.deployed).not.toContain('entryPointV07')
    expect(chain.deployed).not.toContain('simpleAccountFactoryV07')
    // The rest is deployed: the other EntryPoints, the accounts' contracts, Opstation's paymasters and tokens.
    expect(chain.deployed).toEqual(
      expect.arrayContaining(['entryPoint', 'entryPointV08', 'smartAccountFactory', 'verifyingPaymasterV07']),
    )
    expect(chain.deployed.some((name) => name.startsWith('token:'))).toBe(true)
    // The network's own code at a canonical address is left alone (reported), except at Opstation's paymasters.
    expect(chain.mismatched).toContain('simple7702AccountV08')
    expect(chain.deployed).toContain('tokenPaymaster')
    expect(await call(remote.url, 'eth_getCode', [canonicalAddresses.tokenPaymaster, 'latest'])).toBe(
      NETWORK_CODE,
    )
    expect(JSON.parse(readFileSync(path.join(dataDir, 'chain', 'fork.json'), 'utf8'))).toMatchObject({
      url: remote.url,
      block: forkBlock,
      chainId: REMOTE_CHAIN_ID,
    })
    const status = await readStatus(first)
    expect(status.chain.fork).toEqual({ url: remote.url, block: forkBlock })

    const { paymasterUrl, paymasterId, apiKey } = await createDapp(first)
    const receipt = await sendSponsoredV07(first, paymasterUrl)
    expect(receipt.success).toBe(true)
    const balance = await getGasTankBalance(chain, paymasterId, '0.7')
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
    expect(head).toBeGreaterThan(BigInt(forkBlock))
    await first.close()

    // The remote moves on; the data folder's fork stays at its block, without the flags.
    await call(remote.url, 'anvil_mine', ['0x5'])
    const again = await startTestService({ dataDir })
    cleanups.push(() => again.close())
    expect(again.chain!.chainId).toBe(REMOTE_CHAIN_ID)
    expect(again.chain!.fork).toEqual({ url: remote.url, block: forkBlock })
    expect(again.chain!.deployed).toEqual([])
    expect(await again.chain!.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(head)
    expect(again.store.data.dapps.find((d) => d.apiKey === apiKey)?.paymasterId).toBe(paymasterId)
    expect(await getGasTankBalance(again.chain!, paymasterId, '0.7')).toBe(balance)
    const paymasterUrlNow = again.info().paymasterUrlTemplate.replace('{apiKey}', apiKey)
    expect((await sendSponsoredV07(again, paymasterUrlNow)).success).toBe(true)
    await again.close()
  })

  it('refuses another --fork-block or --chain-id on the data folder of a fork, with one line', async () => {
    await expect(
      startTestService({ dataDir, forkUrl: remote.url, forkBlock: forkBlock - 1 }),
    ).rejects.toThrow(
      `the data folder holds a fork of ${remote.url} at block ${forkBlock}; --fork-block ${forkBlock - 1} differs`,
    )
    await expect(startTestService({ dataDir, forkUrl: remote.url, chainId: 10 })).rejects.toThrow(
      /with chain id 8453; --chain-id 10 differs/,
    )
  })

  it('--chain-id overrides the forked chain id, and --fork-block pins an earlier block', async () => {
    const service = await startTestService({
      dataDir: path.join(folder, 'override'),
      forkUrl: remote.url,
      forkBlock: forkBlock,
      chainId: 10,
    })
    cleanups.push(() => service.close())
    expect(service.chain!.chainId).toBe(10)
    expect(service.info().bundlerUrl).toContain('/api/v2/10/')
    expect(service.chain!.fork).toEqual({ url: remote.url, block: forkBlock })
    expect(service.chain!.deployed).not.toContain('entryPointV07')
    const remoteBlock = await call<{ hash: Hex }>(remote.url, 'eth_getBlockByNumber', [
      `0x${forkBlock.toString(16)}`,
      false,
    ])
    expect((await service.chain!.publicClient.getBlock({ blockNumber: BigInt(forkBlock) })).hash).toBe(
      remoteBlock.hash,
    )
    await service.close()
  })

  it("takes another URL of the same chain (a provider's key rotated) and records it", async () => {
    const otherUrl = remote.url.replace('127.0.0.1', 'localhost')
    const service = await startTestService({ dataDir, forkUrl: otherUrl })
    cleanups.push(() => service.close())
    expect(service.chain!.fork).toEqual({ url: otherUrl, block: forkBlock })
    await service.close()
    expect(JSON.parse(readFileSync(path.join(dataDir, 'chain', 'fork.json'), 'utf8')).url).toBe(otherUrl)
  })

  it('refuses to continue on a remote reset since (the same URL, another chain there)', async () => {
    await remote.stop()
    remote = await startPlainAnvil(REMOTE_CHAIN_ID, { port: remote.port, args: ['--hardfork', 'prague'] })
    await call(remote.url, 'anvil_mine', [`0x${(forkBlock + 2).toString(16)}`])
    // The record holds the URL the last start took (localhost, above).
    await expect(startTestService({ dataDir, forkUrl: remote.url })).rejects.toThrow(
      `at block ${forkBlock}; ${remote.url} has another block there (another chain, or a node reset since)`,
    )
  })

  it('an unreachable remote at start: one line and exit code 1', async () => {
    const dead = `http://127.0.0.1:${await findFreePort()}`
    const dir = path.join(folder, 'unreachable')
    const res = await runCliToExit(['serve', '--port', '0', '--data-dir', dir, '--fork-url', dead])
    expect(res.code).toBe(1)
    expect(res.stdout).toBe('')
    expect(res.stderr.trim().split('\n')).toEqual([
      `opstation: error: the fork's remote node at ${dead} is unreachable (ECONNREFUSED)`,
    ])
    expect(existsSync(path.join(dir, 'chain', 'fork.json'))).toBe(false)
  })
})
