import { existsSync } from 'node:fs'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hash,
  http,
  parseEther,
  parseGwei,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { fundEth } from '../../../src/main/service/chain'
import { isProcessAlive } from '../../../src/main/service/util/process/isProcessAlive'
import { childrenOf } from '../../helpers/childrenOf'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'
import { requestJson, seedWithChainTemplate, startTestService } from '../../helpers/startTestService'

/** anvil's first dev account: funded on a fresh chain. */
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** What one round made a client see: a transfer's receipt, a faucet's balance, a dApp's funded gas tank. */
type Acknowledged = {
  txHash: Hash
  faucetTo: Address
  faucetBalance: string
  apiKey: string
  tankWei: string
}

async function actAndAcknowledge(ready: Record<string, any>, round: number): Promise<Acknowledged> {
  const { rpcUrl, dashboardUrl, authToken } = ready
  const chain = { ...foundry, rpcUrls: { default: { http: [rpcUrl] } } }
  const wallet = createWalletClient({ account: privateKeyToAccount(DEV_KEY), chain, transport: http(rpcUrl) })
  const client = createPublicClient({ chain, transport: http(rpcUrl) })
  const txHash = await wallet.sendTransaction({
    to: `0x${(0xd00d00 + round).toString(16).padStart(40, '0')}`,
    value: parseEther('0.001'),
    maxFeePerGas: parseGwei('20'),
    maxPriorityFeePerGas: parseGwei('1'),
  })
  const receipt = await client.waitForTransactionReceipt({ hash: txHash, pollingInterval: 20 })
  expect(receipt.status).toBe('success')

  const faucetTo = `0x${(0xfa0000 + round).toString(16).padStart(40, '0')}` as Address
  const faucet = await requestJson(`${dashboardUrl}/console/api/sandbox/faucet`, {
    method: 'POST',
    headers: { authToken },
    body: { address: faucetTo, asset: 'ETH', amount: '2' },
  })
  expect(faucet.status).toBe(200)

  const dapp = await requestJson(`${dashboardUrl}/api/v2/public/sdk/paymaster`, {
    method: 'POST',
    headers: { authToken },
    body: { name: `durable-${round}`, type: 'HYBRID', chainId: 31337, version: '1' },
  })
  expect(dapp.status).toBe(200)
  const apiKey = dapp.body.data.apiKey as string
  const tank = await requestJson(`${dashboardUrl}/console/api/dapps/${apiKey}/gas-tank`, {
    headers: { authToken },
  })
  expect(tank.status).toBe(200)
  expect(BigInt(tank.body.data.balanceWei)).toBeGreaterThan(0n)
  return {
    txHash,
    faucetTo,
    faucetBalance: faucet.body.data.balance,
    apiKey,
    tankWei: tank.body.data.balanceWei,
  }
}

async function expectStillThere(ready: Record<string, any>, acknowledged: Acknowledged[]) {
  const { rpcUrl, dashboardUrl, authToken } = ready
  const client = createPublicClient({ transport: http(rpcUrl) })
  for (const [round, seen] of acknowledged.entries()) {
    const receipt = await client.getTransactionReceipt({ hash: seen.txHash }).catch(() => null)
    expect(receipt?.status, `round ${round}: the transfer's receipt`).toBe('success')
    expect(
      String(await client.getBalance({ address: seen.faucetTo })),
      `round ${round}: the faucet's transfer`,
    ).toBe(seen.faucetBalance)
    const tank = await requestJson(`${dashboardUrl}/console/api/dapps/${seen.apiKey}/gas-tank`, {
      headers: { authToken },
    })
    expect(tank.body.data?.balanceWei, `round ${round}: the dApp's gas tank`).toBe(seen.tankWei)
  }
}

describe('acknowledged chain writes survive hard kills', () => {
  it('kill -9 of the service and its anvil right after acknowledged writes, three times over, loses none of them', async () => {
    const dataDir = await makeTempDir('opstation-chain-kill-')
    await seedWithChainTemplate(dataDir)
    const acknowledged: Acknowledged[] = []
    for (let round = 0; round < 3; round++) {
      const cli = await spawnCli(['--port', '0', '--data-dir', dataDir], { timeoutMs: 60_000 })
      try {
        await expectStillThere(cli.ready, acknowledged)
        acknowledged.push(await actAndAcknowledge(cli.ready, round))
      } finally {
        // Both processes at once, within a few milliseconds of the last answer: no quiet period, no save.
        const anvilPids = childrenOf(cli.child.pid as number)
        cli.child.kill('SIGKILL')
        for (const pid of anvilPids) process.kill(pid, 'SIGKILL')
        await cli.exited
        while (anvilPids.some(isProcessAlive)) await new Promise((r) => setTimeout(r, 20))
      }
    }
    const last = await spawnCli(['--port', '0', '--data-dir', dataDir], { timeoutMs: 60_000 })
    try {
      await expectStillThere(last.ready, acknowledged)
    } finally {
      last.child.kill('SIGTERM')
      expect(await last.exited).toBe(0)
    }
    expect(existsSync(dataDir)).toBe(true)
    // Four starts of the CLI (each its own process and anvil): seconds each, more on a loaded machine.
  }, 180_000)

  it('anvil killed the moment a faucet transfer was answered restarts with that transfer', async () => {
    const service = await startTestService()
    try {
      const chain = service.chain!
      const someone = '0x00000000000000000000000000000000000c0ffe'
      const restarted = new Promise<void>((resolve) => {
        service.events.on('chain.status', ({ state }) => {
          if (state === 'ready') resolve()
        })
      })
      await fundEth(chain, someone, parseEther('5'))
      process.kill(chain.anvil!.pid(), 'SIGKILL')
      await restarted
      const client = createPublicClient({ transport: http(service.info().rpcUrl!) })
      expect(await client.getBalance({ address: someone })).toBe(parseEther('5'))
    } finally {
      await service.dispose()
    }
  })
})
