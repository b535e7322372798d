import { type Address, type Hex, hexToNumber, numberToHex, slice } from 'viem'
import { entryPoint07Address, entryPoint09Address } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import { explainAaError } from '../../../src/shared/aaErrors'
import type { SponsorshipView } from '../../../src/shared/api/sponsorships'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { callBundler, publicClientOf, randomAddress, waitFor } from '../bundler/bundlerTestKit'
import { deployRuleTestAccountV07 } from '../bundler/ruleTestAccount'
import { callConsole, callPaymaster, createDapp } from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

/** v0.9's VALIDITY_BLOCK_RANGE_FLAG: validAfter and validUntil above it are block numbers. */
const BLOCK_FLAG = 2 ** 47
const VALIDITY_FIELDS = 20 + 6 + 6

/** validUntil and validAfter of Opstation's verifying paymasterData (paymasterId ‖ validUntil ‖ validAfter ‖ …). */
const readSignedWindow = (paymasterData: Hex) => ({
  validUntil: hexToNumber(slice(paymasterData, 20, 26)),
  validAfter: hexToNumber(slice(paymasterData, 26, VALIDITY_FIELDS)),
})

const setPolicies = (apiKey: string, body: Record<string, unknown>) =>
  callConsole(service, `/console/api/dapps/${apiKey}/policies`, { method: 'PATCH', body })

/** The dApp's newest sponsorship decision, as the console shows it. */
async function latestDecision(apiKey: string): Promise<SponsorshipView> {
  const { body } = await callConsole(service, `/console/api/sponsorship-decisions?apiKey=${apiKey}&limit=1`)
  return body.data.items[0]
}

/** ERC-7677 pm_getPaymasterData for the operation: the operation with the signed paymaster fields and gas limits. */
async function sponsor(apiKey: string, op: Record<string, string>, entryPoint: Address) {
  const chainId = numberToHex(service.chain!.chainId)
  const answer = await callPaymaster(service, apiKey, 'pm_getPaymasterData', [op, entryPoint, chainId])
  if (answer.body.error) return { error: answer.body.error as { code: number; message: string } }
  const { sponsor: _, ...fields } = answer.body.result
  return { operation: { ...op, ...fields } as Record<string, string> }
}

async function sendAndWait(operation: Record<string, string>, entryPoint: Address) {
  const sent = await callBundler(service, 'eth_sendUserOperation', [operation, entryPoint])
  expect(sent.body.error).toBeUndefined()
  return waitFor(async () => {
    const { body } = await callBundler(service, 'eth_getUserOperationReceipt', [sent.body.result])
    return body.result
  }, 30_000)
}

describe("a dApp's block window: v0.9 sponsorships signed in block numbers", () => {
  it('refuses a block window it cannot keep with a 400 that names the field', async () => {
    const { apiKey } = await createDapp(service)
    const cases: [Record<string, unknown>, string][] = [
      [{ validForBlocks: 1 }, 'blockWindow.validForBlocks must be at least 2'],
      [{}, 'blockWindow.validForBlocks is required'],
      [{ validForBlocks: 2.5 }, 'blockWindow.validForBlocks must be a whole number of blocks'],
      [
        { validForBlocks: 5, validAfterBlock: 10, validUntilBlock: 10 },
        'blockWindow.validAfterBlock must be before blockWindow.validUntilBlock',
      ],
      [{ validForBlocks: 5, validUntilBlock: 2 ** 47 }, 'blockWindow.validUntilBlock must be at most'],
      [
        { validForBlocks: 5, blocks: 3 },
        'blockWindow takes only validForBlocks, validAfterBlock and validUntilBlock',
      ],
    ]
    for (const [blockWindow, message] of cases) {
      const res = await setPolicies(apiKey, { blockWindow })
      expect(res.status, JSON.stringify(blockWindow)).toBe(400)
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(message) })
    }
    const saved = await setPolicies(apiKey, { blockWindow: { validForBlocks: 5 } })
    expect(saved.status).toBe(200)
    expect(saved.body.data.blockWindow).toEqual({
      validForBlocks: 5,
      validAfterBlock: null,
      validUntilBlock: null,
    })
    const cleared = await setPolicies(apiKey, { blockWindow: null })
    expect(cleared.body.data.blockWindow).toBeNull()
  })

  it('signs validAfter/validUntil as block numbers (top bit set) for v0.9: mined inside the window; one sent after the chain passed it is refused with AA37 naming the blocks', async () => {
    const validForBlocks = 6
    const { apiKey } = await createDapp(service)
    expect((await setPolicies(apiKey, { blockWindow: { validForBlocks } })).status).toBe(200)
    const rules = await deployRuleTestAccountV07(service, entryPoint09Address)
    const client = publicClientOf(service)

    const head = Number(await client.getBlockNumber({ cacheTime: 0 }))
    const first = await sponsor(
      apiKey,
      await rules.buildRpcOperation(0n, randomAddress()),
      entryPoint09Address,
    )
    if (!first.operation) throw new Error(JSON.stringify(first.error))
    const signed = readSignedWindow(first.operation.paymasterData as Hex)
    expect(signed.validAfter).toBeGreaterThan(BLOCK_FLAG)
    expect(signed.validUntil).toBeGreaterThan(BLOCK_FLAG)
    const window = {
      validAfterBlock: signed.validAfter - BLOCK_FLAG,
      validUntilBlock: signed.validUntil - BLOCK_FLAG,
    }
    expect(window.validUntilBlock - window.validAfterBlock).toBe(validForBlocks + 1)
    expect(window.validAfterBlock).toBeGreaterThanOrEqual(head - 1)

    // The decision records the block window, and the limits step says how it was judged.
    const decision = await latestDecision(apiKey)
    expect(decision).toMatchObject({
      sponsored: true,
      entryPointVersion: '0.9',
      validUntil: null,
      blockWindow: window,
    })
    expect(decision.steps.find((s) => s.step === 'limits')?.detail).toMatch(
      new RegExp(
        `block window: each sponsorship valid for ${validForBlocks} blocks, the chain is at block \\d+`,
      ),
    )

    const receipt = await sendAndWait(first.operation, entryPoint09Address)
    expect(receipt.success).toBe(true)
    const minedIn = hexToNumber(receipt.receipt.blockNumber)
    expect(minedIn).toBeGreaterThan(window.validAfterBlock)
    expect(minedIn).toBeLessThanOrEqual(window.validUntilBlock)

    // Sponsored now, sent once the chain (mined through its URL) has passed the window's last block.
    const second = await sponsor(
      apiKey,
      await rules.buildRpcOperation(1n, randomAddress()),
      entryPoint09Address,
    )
    if (!second.operation) throw new Error(JSON.stringify(second.error))
    const until = readSignedWindow(second.operation.paymasterData as Hex).validUntil - BLOCK_FLAG
    await client.request({ method: 'anvil_mine', params: [numberToHex(validForBlocks + 2)] } as never)
    const refused = await callBundler(service, 'eth_sendUserOperation', [
      second.operation,
      entryPoint09Address,
    ])
    expect(refused.body.error.message).toMatch(
      new RegExp(`^AA37 paymaster inval block range: valid until block ${until}, the chain is at block \\d+`),
    )
    const chainAt = Number(/the chain is at block (\d+)/.exec(refused.body.error.message)?.[1])
    expect(chainAt).toBeGreaterThan(until)
    expect(explainAaError(refused.body.error.message)?.entity).toBe('paymaster')
  }, 90_000)

  it("refuses to sponsor once the chain reaches the dApp's validUntilBlock, saying at which block", async () => {
    const { apiKey } = await createDapp(service)
    const head = Number(await publicClientOf(service).getBlockNumber({ cacheTime: 0 }))
    const set = await setPolicies(apiKey, {
      blockWindow: { validForBlocks: 5, validAfterBlock: null, validUntilBlock: head },
    })
    expect(set.status).toBe(200)
    const rules = await deployRuleTestAccountV07(service, entryPoint09Address)
    const refused = await sponsor(
      apiKey,
      await rules.buildRpcOperation(0n, randomAddress()),
      entryPoint09Address,
    )
    expect(refused.error?.message).toMatch(
      new RegExp(`Sponsorship ended at block ${head} \\(the chain is at block \\d+\\)`),
    )
  }, 60_000)

  it('keeps a time window for a v0.7 operation of a dApp asking a block window, and says so in the decision', async () => {
    const { apiKey } = await createDapp(service)
    expect((await setPolicies(apiKey, { blockWindow: { validForBlocks: 6 } })).status).toBe(200)
    const rules = await deployRuleTestAccountV07(service, entryPoint07Address)
    const sponsored = await sponsor(
      apiKey,
      await rules.buildRpcOperation(0n, randomAddress()),
      entryPoint07Address,
    )
    if (!sponsored.operation) throw new Error(JSON.stringify(sponsored.error))
    const signed = readSignedWindow(sponsored.operation.paymasterData as Hex)
    const now = Math.floor(Date.now() / 1000)
    expect(signed.validAfter).toBe(0)
    expect(signed.validUntil).toBeGreaterThan(now - 60)
    expect(signed.validUntil).toBeLessThan(BLOCK_FLAG)

    const decision = await latestDecision(apiKey)
    expect(decision).toMatchObject({ sponsored: true, entryPointVersion: '0.7', blockWindow: null })
    expect(decision.validUntil).toBe(signed.validUntil)
    expect(decision.steps.find((s) => s.step === 'limits')?.detail).toContain(
      'block window not applied to this EntryPoint v0.7 operation (EntryPoint v0.9 only: v0.6, v0.7 and v0.8 read validUntil and validAfter as times, so their sponsorships keep the time window): signed with a time window',
    )
    const receipt = await sendAndWait(sponsored.operation, entryPoint07Address)
    expect(receipt.success).toBe(true)
  }, 60_000)
})
