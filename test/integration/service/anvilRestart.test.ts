import { stat } from 'node:fs/promises'
import { createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundEth } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService
beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => service.dispose())

describe('embedded anvil crash', () => {
  it('the service notices, reports restarting then ready, and the chain state is still there on the same URL', async () => {
    const chain = service.chain!
    const someone = '0x00000000000000000000000000000000000b0b0b'
    const funded = Date.now()
    await fundEth(chain, someone, parseEther('3'))
    // The state saver writes shortly after a change (at most 20 times as long as the last dump took, so that dumps
    // take no more than 5% of the time): wait until it has.
    const savedAt = () =>
      stat(chain.anvil!.statePath).then(
        (s) => s.mtimeMs,
        () => 0,
      )
    while ((await savedAt()) <= funded) await new Promise((r) => setTimeout(r, 100))
    const states: string[] = []
    const ready = new Promise<void>((resolve) => {
      service.events.on('chain.status', ({ state }) => {
        states.push(state)
        if (state === 'ready') resolve()
      })
    })
    const rpcUrl = service.info().rpcUrl!
    process.kill(chain.anvil!.pid(), 'SIGKILL')
    await ready
    expect(states).toEqual(['restarting', 'ready'])
    expect(service.info().rpcUrl).toBe(rpcUrl)
    expect(service.info().chain.state).toBe('ready')
    const client = createPublicClient({ transport: http(rpcUrl) })
    expect(await client.getBalance({ address: someone })).toBe(parseEther('3'))
    expect(await client.getCode({ address: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789' })).toMatch(/^0x60/)
  })
})
