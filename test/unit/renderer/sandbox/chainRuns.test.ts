import { describe, expect, it } from 'vitest'
import { describeChainRun, runConfigOn } from '../../../../src/renderer/src/features/sandbox/chainRuns'
import { createRun, patchStep } from '../../../../src/renderer/src/features/sandbox/run'
import type { ServiceInfo } from '../../../../src/shared/serviceInfo'
import { runConfig } from './runConfig'

const BASE = 'http://127.0.0.1:4337'
const chain = (chainId: number) => ({
  chainId,
  kind: 'embedded' as const,
  state: 'ready' as const,
  missing: [],
  chainTimeOffsetSeconds: 0,
  rpcUrl: `${BASE}/rpc/${chainId}`,
  bundlerUrl: `${BASE}/api/v2/${chainId}/bkey`,
  paymasterUrlTemplate: `${BASE}/api/v1/${chainId}/{apiKey}`,
})
const status = (
  ...chainIds: number[]
): Pick<ServiceInfo, 'chains' | 'chainId' | 'bundlerUrl' | 'paymasterUrlTemplate' | 'rpcUrl'> => ({
  chains: chainIds.map(chain),
  chainId: chainIds[0] ?? 31337,
  bundlerUrl: `${BASE}/api/v2/${chainIds[0]}/bkey`,
  paymasterUrlTemplate: `${BASE}/api/v1/${chainIds[0]}/{apiKey}`,
  rpcUrl: `${BASE}/rpc`,
})

const { apiKey: _a, paymasterUrl: _p, bundlerUrl: _b, ...request } = runConfig('SPONSORED')

describe('a sandbox run on a chain', () => {
  it("sends on the chain's bundler with the paymaster URL of that chain's dApp, naming the chain", () => {
    const config = runConfigOn(status(31337, 31338), 31338, { apiKey: 'k.2', chainId: 31338 }, request)
    expect(config).toMatchObject({
      chainId: 31338,
      apiKey: 'k.2',
      bundlerUrl: `${BASE}/api/v2/31338/bkey`,
      paymasterUrl: `${BASE}/api/v1/31338/k.2`,
      account: request.account,
      calls: request.calls,
    })
  })

  it("with one chain names none and takes the service's URLs, as always; self-paid without a dApp", () => {
    const config = runConfigOn(status(31337), undefined, { apiKey: 'k.1', chainId: 31337 }, request)
    expect('chainId' in config).toBe(false)
    expect(config).toMatchObject({
      apiKey: 'k.1',
      bundlerUrl: `${BASE}/api/v2/31337/bkey`,
      paymasterUrl: `${BASE}/api/v1/31337/k.1`,
    })
    const selfPaid = runConfigOn(status(31337, 31338), 31338, null, { ...request, mode: 'SELF' })
    expect(selfPaid).toMatchObject({ apiKey: '', bundlerUrl: `${BASE}/api/v2/31338/bkey` })
  })

  it('says how a run ended on its chain: mined with its hash, the step that failed and why, or not finished', () => {
    const run = createRun(runConfig('SELF', { chainId: 31338 }))
    const mined = {
      ...run,
      userOpHash: '0xabc',
      steps: run.steps.map((s) => ({ ...s, status: 'done' as const })),
    }
    expect(describeChainRun(31338, mined)).toEqual({
      chainId: 31338,
      ok: true,
      outcome: 'mined',
      userOpHash: '0xabc',
    })
    const failed = patchStep(run, 'estimate', { status: 'failed', error: 'AA21 didn’t pay prefund' })
    expect(describeChainRun(31338, failed)).toMatchObject({
      ok: false,
      outcome: 'Estimate gas (eth_estimateUserOperationGas) failed: AA21 didn’t pay prefund',
      userOpHash: null,
    })
    expect(describeChainRun(31338, run).outcome).toBe('not finished')
    expect(describeChainRun(31338, null)).toMatchObject({ ok: false, outcome: 'not finished' })
  })
})
