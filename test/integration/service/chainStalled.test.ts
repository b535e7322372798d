import { afterAll, expect, it } from 'vitest'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService | undefined
afterAll(() => service?.dispose())

async function waitForState(state: string, withinMs: number) {
  const deadline = Date.now() + withinMs
  for (;;) {
    const res = await requestJson(`${service!.baseUrl}/console/api/status`, {
      headers: { authToken: service!.authToken() },
    })
    if (res.body.chain.state === state) return res.body.chain as { message: string }
    if (Date.now() > deadline) throw new Error(`the chain is ${res.body.chain.state}, not ${state}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

it('a chain that mines every second and stops mining shows as stalled within seconds, and ready again once it mines', async () => {
  service = await startTestService({ blockTime: 1 })
  await waitForState('ready', 1_000)
  await service.chain!.request('evm_setIntervalMining', [0])
  const stalled = await waitForState('stalled', 10_000)
  expect(stalled.message).toMatch(/^no block since block \d+ \(\d+ s\) although the chain mines on a timer/)
  await service.chain!.request('evm_setIntervalMining', [1])
  const again = await waitForState('ready', 5_000)
  expect(again.message).toMatch(/^blocks are mined again/)
}, 60_000)
