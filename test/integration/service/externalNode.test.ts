import { createPublicClient, http, parseEther } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { verifyingPaymasterAbi } from '../../../src/main/service/chain'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'
import { startPlainAnvil } from '../../helpers/startPlainAnvil'
import { requestJson } from '../../helpers/startTestService'

const cleanup: (() => void)[] = []
afterAll(() => {
  for (const fn of cleanup) fn()
})

describe('opstation serve --rpc-url (external node)', () => {
  it('deploys everything on a separately started anvil, takes its chain id, and serves dApps on it', async () => {
    const anvil = await startPlainAnvil(1337)
    cleanup.push(() => anvil.child.kill())
    const dataDir = await makeTempDir('opstation-ext-')
    const cli = await spawnCli(['--port', '0', '--data-dir', dataDir, '--rpc-url', anvil.url])
    cleanup.push(() => cli.child.kill())
    expect(cli.ready).toMatchObject({
      chainId: 1337,
      rpcUrl: anvil.url,
      chain: { kind: 'external', missing: [] },
    })
    expect(cli.ready.bundlerUrl).toMatch(/\/api\/v2\/1337\//)

    const client = createPublicClient({ transport: http(anvil.url) })
    expect(await client.getCode({ address: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789' })).toMatch(/^0x60/)

    const headers = { authToken: cli.ready.authToken }
    const created = await requestJson(`${cli.ready.dashboardUrl}/api/v2/public/sdk/paymaster`, {
      method: 'POST',
      headers,
      body: { name: 'ext', type: 'HYBRID', chainId: 1337, version: '1.1.0' },
    })
    expect(created.status).toBe(200)
    const list = await requestJson(`${cli.ready.dashboardUrl}/api/v2/public/sdk/paymaster`, { headers })
    const balance = await client.readContract({
      address: cli.ready.chain.addresses.verifyingPaymaster,
      abi: verifyingPaymasterAbi,
      functionName: 'getBalance',
      args: [list.body.data[0].paymasterId],
    })
    expect(balance).toBe(parseEther('10'))
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
  })
})
