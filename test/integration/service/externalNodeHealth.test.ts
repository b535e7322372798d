import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseEther } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { getGasTankBalance } from '../../../src/main/service/chain'
import { startPlainAnvil } from '../../helpers/startPlainAnvil'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import {
  buildSponsorRequestOp,
  createDapp,
  sendSponsoredV07,
  sponsoredContext,
} from '../paymaster/paymasterTestKit'

const folder = mkdtempSync(path.join(os.tmpdir(), 'opstation-node-health-'))
const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(folder, { recursive: true, force: true })
})

async function readStatus(service: TestService) {
  const res = await requestJson(`${service.baseUrl}/console/api/status`, {
    headers: { authToken: service.authToken() },
  })
  return res.body.chain as { state: string; message?: string; since?: string; missing: string[] }
}

async function waitForState(service: TestService, state: string, withinMs: number) {
  const deadline = Date.now() + withinMs
  for (;;) {
    const status = await readStatus(service)
    if (status.state === state) return status
    if (Date.now() > deadline)
      throw new Error(`the chain is ${status.state} (${status.message}), not ${state}, after ${withinMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The status message once it matches (what follows a recovery is told when it is done). */
async function waitForMessage(service: TestService, pattern: RegExp, withinMs: number) {
  const deadline = Date.now() + withinMs
  let status = await readStatus(service)
  while (!pattern.test(status.message ?? '') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
    status = await readStatus(service)
  }
  expect(status.message).toMatch(pattern)
  return status
}

const rpc = (url: string, method: string, params: unknown[]) =>
  requestJson(url, {
    method: 'POST',
    headers: { accept: 'application/json' }, // errors keep their HTTP status (chooseHttpStatus.ts)
    body: { jsonrpc: '2.0', id: 1, method, params },
  })

describe('an external node, watched', () => {
  it('is unreachable within 5 s of stopping, every call answers 503 saying so, and it resumes as it was when back', async () => {
    const state = path.join(folder, 'anvil-state.json')
    let anvil = await startPlainAnvil(31337, { args: ['--state', state] })
    cleanups.push(() => anvil.stop())
    const service = await startTestService({ rpcUrl: anvil.url })
    cleanups.push(() => service.dispose())
    const { paymasterUrl, apiKey } = await createDapp(service)
    const op = await buildSponsorRequestOp(service)
    expect((await readStatus(service)).state).toBe('ready')

    const stoppedAt = Date.now()
    await anvil.stop()
    const away = await waitForState(service, 'unreachable', 5_000)
    expect(Date.now() - stoppedAt).toBeLessThan(5_000)
    expect(away.message).toContain(`the node at ${anvil.url} does not answer`)
    expect(away.since).toMatch(/^\d{4}-\d\d-\d\dT/)

    const bundlerUrl = service.info().bundlerUrl
    for (const [url, method, params] of [
      [bundlerUrl, 'eth_blockNumber', []],
      [bundlerUrl, 'eth_estimateUserOperationGas', [op, service.chain!.addresses.entryPoint]],
      [paymasterUrl, 'pm_sponsorUserOperation', [op, sponsoredContext()]],
    ] as const) {
      const answer = await rpc(url, method, [...params])
      expect({ method, status: answer.status, code: answer.body.error?.code }).toEqual({
        method,
        status: 503,
        code: -32002,
      })
      expect(answer.body.error.message).toContain(`the node at ${anvil.url} has not answered since`)
    }
    // A dApp made meanwhile is made; its gas tank waits for the node.
    const later = await createDapp(service)
    expect(later.dapp.paymasterId).toBeNull()

    anvil = await startPlainAnvil(31337, { port: anvil.port, args: ['--state', state] })
    await waitForState(service, 'ready', 5_000)
    await waitForMessage(service, /the node is back .*as it was; the gas tanks of 1 dApp created/, 10_000)
    const dapp = service.store.data.dapps.find((d) => d.apiKey === later.apiKey)!
    expect(dapp.paymasterId).toMatch(/^0x/)
    expect(await getGasTankBalance(service.chain!, dapp.paymasterId as `0x${string}`, '0.7')).toBe(
      parseEther('10'),
    )
    const receipt = await sendSponsoredV07(service, paymasterUrl)
    expect(receipt.success).toBe(true)
    expect(apiKey).toBeTruthy()
  }, 120_000)

  it('a node restarted fresh gets every contract and gas tank back, and a sponsored operation succeeds without restarting Opstation', async () => {
    let anvil = await startPlainAnvil(31337)
    cleanups.push(() => anvil.stop())
    const service = await startTestService({ rpcUrl: anvil.url })
    cleanups.push(() => service.dispose())
    const { paymasterUrl, paymasterId } = await createDapp(service)
    const entryPoint = service.chain!.addresses.entryPointV07

    await anvil.stop()
    await waitForState(service, 'unreachable', 5_000)
    anvil = await startPlainAnvil(31337, { port: anvil.port })
    const recovered = await waitForState(service, 'ready', 30_000)
    expect(recovered.message).toMatch(/the node was reset at .*: \d+ contracts redeployed/)
    expect(recovered.missing).toEqual([])
    const code = await rpc(anvil.url, 'eth_getCode', [entryPoint, 'latest'])
    expect(code.body.result.length).toBeGreaterThan(1000)
    // The gas tanks come back funded as on first start (the status says so once they are).
    await waitForMessage(service, /the gas tanks of 1 dApp funded again/, 10_000)
    expect(await getGasTankBalance(service.chain!, paymasterId, '0.7')).toBe(parseEther('10'))
    const receipt = await sendSponsoredV07(service, paymasterUrl)
    expect(receipt.success).toBe(true)
  }, 120_000)
})
