import { PaymasterMode } from '@biconomy/account'
import { beforeAll, describe, expect, it } from 'vitest'
import { increaseTime, mine } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import {
  buildSponsorRequestOp,
  callConsole,
  callPaymaster,
  createBiconomyAccount,
  createDapp,
  sponsoredContext,
} from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

async function setLimits(apiKey: string, limits: unknown[]) {
  const res = await callConsole(service, `/console/api/dapps/${apiKey}/policies`, {
    method: 'PATCH',
    body: { limits },
  })
  expect(res.status).toBe(200)
  return res.body.data
}

/** Sends one sponsored transaction with the SDK and waits until it is mined. */
async function sendSponsored(
  smartAccount: Awaited<ReturnType<typeof createBiconomyAccount>>['smartAccount'],
) {
  const response = await smartAccount.sendTransaction(
    { to: randomAddress(), value: 0n, data: '0x' },
    { paymasterServiceData: { mode: PaymasterMode.SPONSORED } },
  )
  await response.waitForTxHash()
  return response
}

async function sponsorFor(apiKey: string, sender: `0x${string}`, nonce: bigint, initCode?: `0x${string}`) {
  const op = await buildSponsorRequestOp(service, { sender, nonce, initCode })
  const { status, body } = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
    op,
    sponsoredContext(),
  ])
  expect(status).toBe(200)
  return body.result
}

async function lastReason(apiKey: string) {
  const { body } = await callConsole(service, `/console/api/sponsorship-decisions?apiKey=${apiKey}&limit=1`)
  return body.data.items[0].reason as string | null
}

describe('spending limits, counted from mined operations', () => {
  it('stops sponsoring an account once its per-account count is reached, and sponsors it again in the next cycle', async () => {
    const { apiKey, paymasterUrl } = await createDapp(service)
    const policies = await setLimits(apiKey, [
      {
        type: 'SMART_ACCOUNT',
        thresholdType: 'COUNT',
        threshold: '1',
        cycleDuration: { value: 1, unit: 'hour' },
      },
    ])
    expect(policies.limits[0]).toMatchObject({ id: expect.any(String), active: true })
    const { smartAccount, address } = await createBiconomyAccount(service, paymasterUrl)
    const initCode = (await smartAccount.getAccountInitCode()) as `0x${string}`

    // Signing is not spending: two signatures before anything is mined are both sponsored.
    expect((await sponsorFor(apiKey, address, 0n, initCode)).paymasterAndData).not.toBe('0x')
    expect((await sponsorFor(apiKey, address, 0n, initCode)).paymasterAndData).not.toBe('0x')

    await sendSponsored(smartAccount)
    const after = await sponsorFor(apiKey, address, 1n)
    expect(after.paymasterAndData).toBe('0x')
    expect(after.callGasLimit).toBeGreaterThan(0)
    expect(await lastReason(apiKey)).toMatch(
      /^Spending limit reached: per smart account limit 1 of 1 operations used in this 1 hour cycle/,
    )

    // Another account of the same dApp has its own count.
    const other = await createBiconomyAccount(service, paymasterUrl)
    const otherInitCode = (await other.smartAccount.getAccountInitCode()) as `0x${string}`
    expect((await sponsorFor(apiKey, other.address, 0n, otherInitCode)).paymasterAndData).not.toBe('0x')

    // The next cycle, by the chain's clock.
    await increaseTime(service.chain!, 3600)
    await mine(service.chain!)
    expect((await sponsorFor(apiKey, address, 1n)).paymasterAndData).not.toBe('0x')
    const again = await sendSponsored(smartAccount)
    const receipt = await again.wait()
    expect(receipt.success).toBe('true')
  }, 90_000)

  it('counts an operation even when more blocks than the chain keeps are mined right after it', async () => {
    const { apiKey, paymasterUrl } = await createDapp(service)
    await setLimits(apiKey, [
      {
        type: 'SMART_ACCOUNT',
        thresholdType: 'COUNT',
        threshold: '1',
        cycleDuration: { value: 1, unit: 'day' },
      },
    ])
    const { smartAccount, address } = await createBiconomyAccount(service, paymasterUrl)
    await sendSponsored(smartAccount)
    // The embedded anvil keeps the logs of its last 64 blocks: these leave the operation's block behind at once.
    await mine(service.chain!, 100)
    expect((await sponsorFor(apiKey, address, 1n)).paymasterAndData).toBe('0x')
    expect(await lastReason(apiKey)).toMatch(
      /^Spending limit reached: per smart account limit 1 of 1 operations/,
    )
  }, 90_000)

  it('applies a dApp-wide limit to every account, and by wei spent', async () => {
    const { apiKey, paymasterUrl } = await createDapp(service)
    await setLimits(apiKey, [
      {
        type: 'PAYMASTER',
        thresholdType: 'NATIVE_ASSET',
        threshold: '1',
        cycleDuration: { value: 1, unit: 'day' },
      },
    ])
    const first = await createBiconomyAccount(service, paymasterUrl)
    await sendSponsored(first.smartAccount)
    const second = await createBiconomyAccount(service, paymasterUrl)
    const secondInitCode = (await second.smartAccount.getAccountInitCode()) as `0x${string}`
    expect((await sponsorFor(apiKey, second.address, 0n, secondInitCode)).paymasterAndData).toBe('0x')
    expect(await lastReason(apiKey)).toMatch(
      /^Spending limit reached: dApp-wide limit \d+ of 1 wei used in this 1 day cycle/,
    )
  }, 90_000)

  it('rejects invalid policy edits with a clear message', async () => {
    const { apiKey } = await createDapp(service)
    const bad = await callConsole(service, `/console/api/dapps/${apiKey}/policies`, {
      method: 'PATCH',
      body: {
        limits: [
          {
            type: 'SMART_ACCOUNT',
            thresholdType: 'COUNT',
            threshold: '0',
            cycleDuration: { value: 1, unit: 'hour' },
          },
        ],
      },
    })
    expect(bad).toMatchObject({
      status: 400,
      body: { message: 'threshold must be a positive whole number (count, or wei as a decimal string)' },
    })
    const window = await callConsole(service, `/console/api/dapps/${apiKey}/policies`, {
      method: 'PATCH',
      body: { validAfter: 200, validUntil: 100 },
    })
    expect(window).toMatchObject({ status: 400, body: { message: 'validAfter must be before validUntil' } })
    const unauthenticated = await fetch(`${service.baseUrl}/console/api/dapps/${apiKey}/policies`)
    expect(unauthenticated.status).toBe(401)
  })
})
