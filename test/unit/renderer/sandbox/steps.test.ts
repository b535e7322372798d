import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRun, type Exchange, type Run } from '../../../../src/renderer/src/features/sandbox/run'
import { buildOperation } from '../../../../src/renderer/src/features/sandbox/steps/build'
import { waitForReceipt } from '../../../../src/renderer/src/features/sandbox/steps/receipt'
import { signOperation } from '../../../../src/renderer/src/features/sandbox/steps/sign'
import { sponsorOperation } from '../../../../src/renderer/src/features/sandbox/steps/sponsor'
import type { StepContext } from '../../../../src/renderer/src/features/sandbox/steps/stepContext'
import type { UserOperationJson } from '../../../../src/shared/sandbox'
import { runConfig } from './runConfig'

/**
 * The sandbox's steps as plain functions of a run: each test answers the requests a step makes (a stand-in for the
 * service's HTTP answers, routed by URL and JSON-RPC method) and checks what the step sent, how it changed the run,
 * what it noted, and when it fails.
 */

type Sent = { url: string; method: string; body: unknown }
type Answer = (sent: Sent) => unknown

let sent: Sent[]

/** Stubs fetch: each request is recorded and answered by `answer` (a JSON body, status 200). */
function answerRequests(answer: Answer) {
  sent = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const request = {
        url,
        method: init.method ?? 'GET',
        body: init.body ? JSON.parse(String(init.body)) : null,
      }
      sent.push(request)
      return new Response(JSON.stringify(answer(request)), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
}

const rpcResult = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result })
const hashOf = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`

/** A step's context over `run`: its changes applied to the returned `state`, its logs and notes recorded. */
function contextOf(run: Run) {
  const state = { run, logs: [] as Exchange[], notes: [] as string[] }
  const context: StepContext = {
    run,
    log: (exchange) => state.logs.push(exchange),
    update: (change) => {
      state.run = { ...state.run, ...change }
    },
    note: (text) => state.notes.push(text),
  }
  return { context, state }
}

const OP: UserOperationJson = {
  sender: '0x1111111111111111111111111111111111111111',
  nonce: '0x0',
  callData: '0x',
  callGasLimit: '0x0',
  verificationGasLimit: '0x0',
  preVerificationGas: '0x0',
  maxFeePerGas: '0x1',
  maxPriorityFeePerGas: '0x1',
  signature: '0x',
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the sandbox steps', () => {
  it('build: ERC20 mode approves the token paymaster before the account calls; the built operation and its EntryPoint go into the run', async () => {
    const token = '0x3333333333333333333333333333333333333333'
    const tokenPaymaster = '0x4444444444444444444444444444444444444444'
    const call = { to: '0x5555555555555555555555555555555555555555', value: '1', data: '0x' }
    answerRequests(() => ({
      statusCode: 200,
      message: 'ok',
      data: { userOperation: OP, entryPoint: '0xep', deployed: false },
    }))
    const { context, state } = contextOf(
      createRun(runConfig('ERC20', { feeToken: token, tokenPaymaster, calls: [call] })),
    )
    await buildOperation(context)

    expect(sent).toHaveLength(1)
    expect(sent[0]?.url).toBe(
      '/console/api/sandbox/accounts/0x1111111111111111111111111111111111111111/user-operation',
    )
    const calls = ((sent[0] as Sent).body as { calls: { to: string; data: string }[] }).calls
    expect(calls.map((c) => c.to)).toEqual([token, call.to])
    expect(calls[0]?.data.slice(0, 10)).toBe('0x095ea7b3')
    expect(calls[0]?.data).toContain(tokenPaymaster.slice(2))
    expect(state.run).toMatchObject({ op: OP, entryPoint: '0xep' })
    expect(state.notes).toEqual(['first operation: deploys the account (factory, factoryData)'])
    expect(state.logs.map((l) => l.label)).toEqual(['build'])
  })

  it('build and sign: a run on a chain of several asks the service for that chain (?chainId=), and shows so', async () => {
    answerRequests((request) => ({
      statusCode: 200,
      message: 'ok',
      data: request.url.includes('/sign')
        ? { userOperation: OP, userOpHash: hashOf(9), signature: '0x' }
        : { userOperation: OP, entryPoint: '0xep', deployed: true },
    }))
    const built = contextOf(createRun(runConfig('SPONSORED', { chainId: 31338 })))
    await buildOperation(built.context)
    const signed = contextOf({ ...built.state.run, op: OP, entryPoint: '0xep' })
    await signOperation(signed.context)

    const account = '/console/api/sandbox/accounts/0x1111111111111111111111111111111111111111'
    expect(sent.map((s) => s.url)).toEqual([
      `${account}/user-operation?chainId=31338`,
      `${account}/sign?chainId=31338`,
    ])
    expect([...built.state.logs, ...signed.state.logs].map((l) => l.url)).toEqual(sent.map((s) => s.url))
  })

  it("sponsor: sends the Biconomy SDK's SPONSORED context (with smartAccountInfo for a Smart Account v2) and takes the paymaster's fields, gas limits as hex", async () => {
    answerRequests(() =>
      rpcResult({
        paymasterAndData: '0xabcdef',
        callGasLimit: 70000,
        verificationGasLimit: '0x186a0',
        preVerificationGas: '50000',
        mode: 'SPONSORED',
      }),
    )
    const config = runConfig('SPONSORED', {
      webhookData: { tag: 'demo' },
      account: { ...runConfig('SPONSORED').account, type: 'SMART_ACCOUNT_V2' },
    })
    const { context, state } = contextOf({ ...createRun(config), op: OP, entryPoint: '0xep' })
    await sponsorOperation(context)

    expect(sent[0]?.url).toBe('http://paymaster')
    const request = sent[0]?.body as { method: string; params: unknown[] }
    expect(request.method).toBe('pm_sponsorUserOperation')
    expect(request.params).toEqual([
      OP,
      {
        mode: 'SPONSORED',
        calculateGasLimits: true,
        expiryDuration: 300,
        entryPoint: '0xep',
        sponsorshipInfo: {
          webhookData: { tag: 'demo' },
          smartAccountInfo: { name: 'BICONOMY', version: '2.0.0' },
        },
      },
    ])
    expect(state.run.op).toEqual({
      ...OP,
      paymasterAndData: '0xabcdef',
      callGasLimit: '0x11170',
      verificationGasLimit: '0x186a0',
      preVerificationGas: '0xc350',
    })
    expect(state.notes).toEqual(['sponsored'])
  })

  it("sponsor: a declined operation fails the step with the paymaster's reason from its decision log", async () => {
    answerRequests(({ url }) =>
      url.startsWith('/console/api/sponsorship-decisions')
        ? {
            statusCode: 200,
            message: 'ok',
            data: { items: [{ id: 'd-7', reason: 'the contract is not whitelisted' }] },
          }
        : rpcResult({ paymasterAndData: '0x' }),
    )
    const { context, state } = contextOf({ ...createRun(runConfig('SPONSORED')), op: OP, entryPoint: '0xep' })

    await expect(sponsorOperation(context)).rejects.toThrow('Not sponsored: the contract is not whitelisted')
    expect(sent[1]?.url).toBe(
      '/console/api/sponsorship-decisions?apiKey=key.1&sender=0x1111111111111111111111111111111111111111&limit=1',
    )
    expect(state.run.declined).toEqual({ reason: 'the contract is not whitelisted', decisionId: 'd-7' })
  })

  it('receipt: polls until the operation is mined, shows only the first poll and the answer, and says how many polls it took', async () => {
    let polls = 0
    answerRequests(() => {
      polls += 1
      return rpcResult(
        polls < 3 ? null : { success: true, receipt: { transactionHash: `0x${'ab'.repeat(32)}` } },
      )
    })
    const { context, state } = contextOf({ ...createRun(runConfig('SELF')), userOpHash: '0xhash' })
    await waitForReceipt(context, { pollMs: 1 })

    expect(sent.map((s) => (s.body as { method: string }).method)).toEqual(
      Array(3).fill('eth_getUserOperationReceipt'),
    )
    expect(state.logs).toHaveLength(2)
    expect(state.notes.at(-1)).toBe('mined after 3 polls · tx 0xabababab…')
    expect(state.run.receipt).toMatchObject({ success: true })
  })

  it('receipt: a mined operation whose call reverted fails the step with its reason; without a hash it asks to send first', async () => {
    answerRequests(() => rpcResult({ success: false, reason: 'Vault: too much' }))
    const { context } = contextOf({ ...createRun(runConfig('SELF')), userOpHash: '0xhash' })
    await expect(waitForReceipt(context, { pollMs: 1 })).rejects.toThrow(
      'The operation was mined but its call reverted: Vault: too much',
    )

    const { context: unsent } = contextOf(createRun(runConfig('SELF')))
    await expect(waitForReceipt(unsent)).rejects.toThrow('send the operation first')
  })

  it('receipt: gives up after its time-out, pointing to Activity', async () => {
    answerRequests(() => rpcResult(null))
    const { context } = contextOf({ ...createRun(runConfig('SELF')), userOpHash: '0xhash' })
    await expect(waitForReceipt(context, { timeoutMs: 30, pollMs: 5 })).rejects.toThrow(
      'No receipt after 0.03 s: see the operation in Activity for its status',
    )
  })
})
