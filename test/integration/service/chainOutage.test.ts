import { stat } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { startPlainAnvil } from '../../helpers/startPlainAnvil'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import { buildSponsorRequestOp, createDapp, sponsoredContext } from '../paymaster/paymasterTestKit'

const services: TestService[] = []
const stops: (() => void)[] = []
afterAll(async () => {
  for (const stop of stops) stop()
  for (const service of services) await service.dispose()
})

type Probe = { name: string; send: () => Promise<{ status: number; body: any }> }

/** Requests over every kind of route that needs the chain: console REST, dashboard REST, bundler and paymaster JSON-RPC. */
async function prepareProbes(service: TestService): Promise<Probe[]> {
  const headers = { authToken: service.authToken() }
  const { apiKey } = await createDapp(service)
  const op = await buildSponsorRequestOp(service)
  const account = await requestJson(`${service.baseUrl}/console/api/sandbox/accounts`, {
    method: 'POST',
    headers,
    body: { type: 'SIMPLE_ACCOUNT_V07' },
  })
  const sandbox = account.body.data.address
  const rest = (name: string, path: string, init: { method?: string; body?: unknown } = {}): Probe => ({
    name,
    send: () => requestJson(`${service.baseUrl}${path}`, { ...init, headers }),
  })
  const rpc = (name: string, url: string, method: string, params: unknown[]): Probe => ({
    name,
    send: () =>
      requestJson(url, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: { jsonrpc: '2.0', id: 1, method, params },
      }),
  })
  const bundlerUrl = service.info().bundlerUrl
  const paymasterUrl = service.info().paymasterUrlTemplate.replace('{apiKey}', apiKey)
  const entryPoint = service.chain!.addresses.entryPoint
  return [
    rest('gas tank', `/console/api/dapps/${apiKey}/gas-tank`),
    rest('gas tank deposit', `/console/api/dapps/${apiKey}/gas-tank`, {
      method: 'POST',
      body: { action: 'deposit', amountWei: '1000' },
    }),
    rest('sandbox accounts', '/console/api/sandbox/accounts'),
    rest('sandbox build', `/console/api/sandbox/accounts/${sandbox}/user-operation`, {
      method: 'POST',
      body: { calls: [{ to: sandbox }] },
    }),
    rest('faucet', '/console/api/sandbox/faucet', {
      method: 'POST',
      body: { address: randomAddress(), asset: 'tUSDC', amount: '1' },
    }),
    rpc('eth_estimateUserOperationGas', bundlerUrl, 'eth_estimateUserOperationGas', [op, entryPoint]),
    rpc('eth_blockNumber', bundlerUrl, 'eth_blockNumber', []),
    rpc('biconomy_getGasFeeValues', bundlerUrl, 'biconomy_getGasFeeValues', []),
    rpc('pm_sponsorUserOperation', paymasterUrl, 'pm_sponsorUserOperation', [op, sponsoredContext()]),
    rpc('pm_getFeeQuoteOrData', paymasterUrl, 'pm_getFeeQuoteOrData', [op, { mode: 'ERC20', tokenInfo: {} }]),
  ]
}

/** A chain outage as each envelope carries it: 503 and the one message. */
function expectOutageAnswer(name: string, answer: { status: number; body: any }) {
  const message = answer.body?.error?.message ?? answer.body?.message
  expect({ name, status: answer.status, message }).toEqual({
    name,
    status: 503,
    message: expect.stringMatching(/^The chain is not answering right now \(.+\); try again in a moment$/),
  })
  if (answer.body?.error) expect(answer.body.error.code).toBe(-32002)
}

describe('a chain outage is a 503 with the envelope message on every route, never a 500', () => {
  it('an external node that stopped (connection refused)', async () => {
    const anvil = await startPlainAnvil(31337)
    stops.push(() => anvil.child.kill('SIGKILL'))
    const service = await startTestService({ rpcUrl: anvil.url })
    services.push(service)
    const probes = await prepareProbes(service)
    const known = new Promise<void>((resolve) => {
      service.events.on('chain.status', ({ state }) => {
        if (state === 'unreachable') resolve()
      })
    })
    anvil.child.kill('SIGKILL')
    await new Promise((resolve) => anvil.child.once('exit', resolve))
    // Once the service knows (its watch looks every second), nothing answers from what it read before, within the
    // second its fee cache would otherwise keep (biconomy_getGasFeeValues answered 200 from it).
    await known
    for (const probe of probes) expectOutageAnswer(probe.name, await probe.send())
    // What does not need the node still answers.
    const list = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      headers: { authToken: service.authToken() },
    })
    expect(list.status).toBe(200)
  })

  it('answers no fee it read before the node went away, once it knows the node is away', async () => {
    const anvil = await startPlainAnvil(31337)
    stops.push(() => anvil.child.kill('SIGKILL'))
    const service = await startTestService({ rpcUrl: anvil.url })
    services.push(service)
    const fees = () =>
      requestJson(service.info().bundlerUrl, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: { jsonrpc: '2.0', id: 1, method: 'biconomy_getGasFeeValues', params: [] },
      })
    expect((await fees()).status).toBe(200) // the latest block is now cached for a second
    anvil.child.kill('SIGKILL')
    await new Promise((resolve) => anvil.child.once('exit', resolve))
    expect(await service.chain!.watch()).toMatchObject({ state: 'unreachable' })
    expectOutageAnswer('biconomy_getGasFeeValues', await fees())
  })

  it('the embedded anvil restarting: no 500 while it is away (a 5xx is the 503), and 200 again once it is back', async () => {
    const service = await startTestService()
    services.push(service)
    const probes = await prepareProbes(service)
    // Wait for a state save that holds what the probes need (the dApp's gas tank): the restarted node loads it.
    const prepared = Date.now()
    const savedAt = () =>
      stat(service.chain!.anvil!.statePath).then(
        (s) => s.mtimeMs,
        () => 0,
      )
    while ((await savedAt()) <= prepared) await new Promise((r) => setTimeout(r, 50))
    const ready = new Promise<void>((resolve) => {
      service.events.on('chain.status', ({ state }) => {
        if (state === 'ready') resolve()
      })
    })
    let restarted = false
    void ready.then(() => {
      restarted = true
    })
    const answers: { name: string; status: number; message: string }[] = []
    process.kill(service.chain!.anvil!.pid(), 'SIGKILL')
    while (!restarted) {
      const round = await Promise.all(probes.map(async (p) => ({ name: p.name, answer: await p.send() })))
      for (const { name, answer } of round) {
        answers.push({
          name,
          status: answer.status,
          message: answer.body?.error?.message ?? answer.body?.message,
        })
        // A 4xx is an answer of the chain as it is (a round may start once the restart is over).
        if (answer.status >= 500) expectOutageAnswer(name, answer)
      }
    }
    expect(answers.length).toBeGreaterThan(0)
    expect(answers.filter((a) => a.status >= 500).length).toBeGreaterThan(0)
    for (const probe of probes) {
      const answer = await probe.send()
      expect({ name: probe.name, status: answer.status }).toEqual({ name: probe.name, status: 200 })
    }
  })
})
