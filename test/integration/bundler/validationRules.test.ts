import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fullMessageOf } from '../../helpers/expectRejectionLine'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { callBundler, randomAddress, waitFor } from './bundlerTestKit'
import {
  deployRuleTestAccount,
  deployRuleTestAccountV07,
  type RuleTestAccount,
  toRpcOperation,
} from './ruleTestAccount'

let service: TestService
let account: RuleTestAccount

beforeAll(async () => {
  service = await startTestService()
  account = await deployRuleTestAccount(service)
})
afterAll(async () => {
  await service?.dispose()
})

async function setUnsafe(unsafe: boolean) {
  const res = await requestJson(`${service.baseUrl}/console/api/settings`, {
    method: 'PATCH',
    headers: { authToken: service.authToken() },
    body: { unsafe },
  })
  expect(res.status).toBe(200)
}

async function send(nonce: bigint) {
  const op = await account.buildOperation({ nonce, to: randomAddress() })
  return callBundler(service, 'eth_sendUserOperation', [
    toRpcOperation(op),
    service.chain!.addresses.entryPoint,
  ])
}

async function waitForReceipt(userOpHash: string) {
  return waitFor(
    async () => (await callBundler(service, 'eth_getUserOperationReceipt', [userOpHash])).body.result,
  )
}

describe('ERC-7562 validation rules (safe mode by default, --unsafe skips them)', () => {
  it('accepts an account whose validation follows the rules, checked on the built-in traces (its timeline says so)', async () => {
    await account.setMode(0)
    const { status, body } = await send(0n)
    expect(status).toBe(200)
    expect((await waitForReceipt(body.result)).success).toBe(true)
    const record = await requestJson(`${service.baseUrl}/console/api/user-operations/${body.result}`, {
      headers: { authToken: service.authToken() },
    })
    expect(record.body.data.timeline[0]).toMatchObject({
      status: 'pending',
      note: "ERC-7562 rules checked on the node's built-in traces",
    })
  })

  it('rejects a banned opcode (TIMESTAMP) in validation with -32502 in safe mode, accepts it in unsafe mode', async () => {
    await account.setMode(1)
    const rejected = await send(1n)
    expect(rejected.status).toBe(400)
    expect(rejected.body.error.code).toBe(-32502)
    expect(rejected.body.error.message).toMatch(/banned opcode: TIMESTAMP/)
    expect(rejected.body.error.data.rules).toContain('OP-011')

    await setUnsafe(true)
    try {
      const accepted = await send(1n)
      expect(accepted.status).toBe(200)
      expect((await waitForReceipt(accepted.body.result)).success).toBe(true)
    } finally {
      await setUnsafe(false)
    }
  })

  it('rejects reading storage of another contract in validation with -32502 in safe mode, accepts it in unsafe mode', async () => {
    await account.setMode(2)
    const rejected = await send(2n)
    expect(rejected.status).toBe(400)
    expect(rejected.body.error.code).toBe(-32502)
    expect(fullMessageOf(rejected.body.error).toLowerCase()).toContain(account.registry.toLowerCase())
    expect(rejected.body.error.data.rules).toContain('STO-033')

    await setUnsafe(true)
    try {
      const accepted = await send(2n)
      expect(accepted.status).toBe(200)
      expect((await waitForReceipt(accepted.body.result)).success).toBe(true)
    } finally {
      await setUnsafe(false)
    }
  })

  it('records the rejection with its rule for the console', async () => {
    await account.setMode(1)
    const rejected = await send(3n)
    expect(rejected.body.error.code).toBe(-32502)
    const feed = await requestJson(`${service.baseUrl}/console/api/user-operations?limit=5`, {
      headers: { authToken: service.authToken() },
    })
    expect(feed.status).toBe(200)
    const record = feed.body.data.items.find((r: any) => r.status === 'rejected' && r.nonce === '3')
    expect(record.failure).toMatchObject({ code: -32502, rules: ['OP-011'] })
    expect(record.sender.toLowerCase()).toBe(account.address.toLowerCase())
  })
})

describe.each([
  ['0.7', '0x0000000071727De22E5E9d8BAf0edAc6f37da032'],
  ['0.8', '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'],
  ['0.9', '0x433709009B8330FDa32311DF1C2AFA402eD8D009'],
] as const)(
  'ERC-7562 validation rules on EntryPoint v%s (traced through EntryPointSimulations)',
  (version, entryPoint) => {
    it('accepts a clean validation, rejects a banned opcode and foreign storage with -32502 in safe mode, accepts both in unsafe mode', async () => {
      const v07 = await deployRuleTestAccountV07(service, entryPoint)
      const sendV07 = async (nonce: bigint) =>
        callBundler(service, 'eth_sendUserOperation', [
          await v07.buildRpcOperation(nonce, randomAddress()),
          entryPoint,
        ])

      const clean = await sendV07(0n)
      expect(clean.status).toBe(200)
      expect((await waitForReceipt(clean.body.result)).success).toBe(true)
      // Checked on the node's built-in traces, as v0.6 operations are (v0.8's own transient storage is the
      // EntryPoint's, not an entity's).
      const record = await requestJson(
        `${service.baseUrl}/console/api/user-operations/${clean.body.result}`,
        {
          headers: { authToken: service.authToken() },
        },
      )
      expect(record.body.data.timeline[0].note).toBe("ERC-7562 rules checked on the node's built-in traces")
      expect(record.body.data.entryPointVersion).toBe(version)

      await v07.setMode(1)
      const banned = await sendV07(1n)
      expect(banned.status).toBe(400)
      expect(banned.body.error.code).toBe(-32502)
      expect(banned.body.error.message).toMatch(/banned opcode: TIMESTAMP/)
      expect(banned.body.error.data.rules).toContain('OP-011')

      await v07.setMode(2)
      const foreign = await sendV07(1n)
      expect(foreign.status).toBe(400)
      expect(foreign.body.error.code).toBe(-32502)
      expect(foreign.body.error.data.rules).toContain('STO-033')

      await setUnsafe(true)
      try {
        const accepted = await sendV07(1n)
        expect(accepted.status).toBe(200)
        expect((await waitForReceipt(accepted.body.result)).success).toBe(true)
        await v07.setMode(1)
        const acceptedBanned = await sendV07(2n)
        expect(acceptedBanned.status).toBe(200)
        expect((await waitForReceipt(acceptedBanned.body.result)).success).toBe(true)
      } finally {
        await setUnsafe(false)
      }
    })
  },
)
