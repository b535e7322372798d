import { describe, expect, it } from 'vitest'
import {
  createRun,
  isBeforeSend,
  nextStep,
  patchStep,
  stepsFor,
} from '../../../../src/renderer/src/features/sandbox/run'
import { runConfig as config } from './runConfig'

describe('a sandbox run', () => {
  it("makes each mode's calls in the order the Biconomy SDK makes them", () => {
    expect(stepsFor('SPONSORED')).toEqual(['build', 'fees', 'sponsor', 'sign', 'send', 'receipt'])
    expect(stepsFor('ERC20')).toEqual([
      'build',
      'fees',
      'estimate',
      'quote',
      'sponsor',
      'sign',
      'send',
      'receipt',
    ])
    expect(stepsFor('SELF')).toEqual(['build', 'fees', 'estimate', 'sign', 'send', 'receipt'])
  })

  it('starts with every step idle and titled, nothing built yet', () => {
    const run = createRun(config('SELF'), 42)
    expect(run.steps.map((s) => [s.id, s.status, s.exchanges.length])).toEqual(
      stepsFor('SELF').map((id) => [id, 'idle', 0]),
    )
    expect(run.steps[2]?.title).toBe('Estimate gas (eth_estimateUserOperationGas)')
    expect(run).toMatchObject({ op: null, entryPoint: null, userOpHash: null, declined: null, startedAt: 42 })
  })

  it('runs the first step not done next, so a failed step is retried before the ones after it', () => {
    let run = createRun(config('SPONSORED'))
    expect(nextStep(run)?.id).toBe('build')
    run = patchStep(patchStep(run, 'build', { status: 'done' }), 'fees', { status: 'failed', error: 'down' })
    expect(nextStep(run)).toMatchObject({ id: 'fees', status: 'failed', error: 'down' })
    for (const id of stepsFor('SPONSORED')) run = patchStep(run, id, { status: 'done' })
    expect(nextStep(run)).toBeUndefined()
  })

  it('changes only the step it names', () => {
    const run = createRun(config('SELF'))
    const changed = patchStep(run, 'sign', { note: 'signed' })
    expect(changed.steps.filter((s) => s.note !== null).map((s) => s.id)).toEqual(['sign'])
    expect(run.steps.every((s) => s.note === null)).toBe(true)
  })

  it('simulates after the steps that build and sign, stopping before the send', () => {
    let run = createRun(config('SELF'))
    expect(isBeforeSend(run)).toBe(true)
    for (const id of ['build', 'fees', 'estimate'] as const) run = patchStep(run, id, { status: 'done' })
    expect(isBeforeSend(run)).toBe(true)
    run = patchStep(run, 'sign', { status: 'done' })
    expect(isBeforeSend(run)).toBe(false)
    expect(isBeforeSend(null)).toBe(false)
  })
})
