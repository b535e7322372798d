import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { childrenOf } from '../../helpers/childrenOf'
import { makeTempDir } from '../../helpers/makeTempDir'
import { rpcOverHttp as rpc } from '../../helpers/rpcOverHttp'
import { spawnCli } from '../../helpers/spawnCli'
import { seedWithChainTemplate } from '../../helpers/startTestService'

const ADDRESS = '0x00000000000000000000000000000000000a11ce'
const BALANCE = '0x4d2'

describe('the embedded chain state when the service stops', () => {
  it("a stop leaves the state the service saved, and no dump of anvil's own for the next start to read", async () => {
    const dataDir = await makeTempDir('opstation-stop-')
    await seedWithChainTemplate(dataDir)
    const cli = await spawnCli(['--port', '0', '--data-dir', dataDir])
    await rpc(cli.ready.rpcUrl, 'anvil_setBalance', [ADDRESS, BALANCE])
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)

    const chainDir = path.join(dataDir, 'chain')
    const state = JSON.parse(await readFile(path.join(chainDir, 'anvil-state.json'), 'utf8'))
    expect(BigInt(state.accounts[ADDRESS].balance)).toBe(BigInt(BALANCE))
    expect(existsSync(path.join(chainDir, 'anvil-exit-dump.json'))).toBe(false)
  })

  it('Ctrl-C reaching the service and its anvil together keeps a change made just before', async () => {
    const dataDir = await makeTempDir('opstation-ctrl-c-')
    await seedWithChainTemplate(dataDir)
    const first = await spawnCli(['--port', '0', '--data-dir', dataDir])
    await rpc(first.ready.rpcUrl, 'anvil_setBalance', [ADDRESS, BALANCE])
    // A terminal's Ctrl-C signals the whole foreground process group: the service and its anvil at once.
    for (const pid of childrenOf(first.child.pid as number)) process.kill(pid, 'SIGINT')
    first.child.kill('SIGINT')
    expect(await first.exited).toBe(0)

    const second = await spawnCli(['--port', '0', '--data-dir', dataDir])
    try {
      expect(BigInt(await rpc(second.ready.rpcUrl, 'eth_getBalance', [ADDRESS, 'latest']))).toBe(
        BigInt(BALANCE),
      )
    } finally {
      second.child.kill('SIGTERM')
      await second.exited
    }
  })
})
