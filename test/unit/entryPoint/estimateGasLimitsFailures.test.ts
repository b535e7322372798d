import { describe, expect, it } from 'vitest'
import { readFailureTrace } from '../../../src/main/service/entryPoint/errors'
import type { CallFrame } from '../../../src/main/service/entryPoint/estimation/callFrame'
import {
  estimateGasLimits,
  type SimulationOutcome,
} from '../../../src/main/service/entryPoint/estimation/estimateGasLimits'
import { createShapeCache } from '../../../src/main/service/entryPoint/estimation/shapeCache'
import type { UserOperationBase } from '../../../src/main/service/entryPoint/types'

type Name = 'verificationGasLimit' | 'callGasLimit'
type Outcome = SimulationOutcome<Name>

const frame = (gas: bigint): CallFrame => ({
  type: 'CALL',
  from: '0x0000000000000000000000000000000000000001',
  gas: `0x${gas.toString(16)}`,
  gasUsed: '0x0',
  input: '0x',
})
const operation = {} as UserOperationBase

/** Runs the estimation loop over a scripted simulation that answers by the call gas it is given. */
function estimate(simulate: (limits: Record<Name, bigint>) => Outcome) {
  const simulated: bigint[] = []
  const run = estimateGasLimits({
    trial: { verificationGasLimit: 100_000n, callGasLimit: 1_000n },
    simulate: async (limits) => {
      simulated.push(limits.callGasLimit)
      return simulate(limits)
    },
    deriveLimits: () => ({ verificationGasLimit: 100_000n, callGasLimit: 1n }),
    guesses: createShapeCache<string, Record<Name, bigint>>(() => 'shape'),
    subject: 'op',
  })
  return { run, simulated }
}

describe('estimateGasLimits: the error a failure throws', () => {
  it('keeps the traced simulation with the error (the bundler names the failing frame from it)', async () => {
    const trace = { frame: frame(1_000n), userOperation: operation }
    const { run } = estimate(() => ({
      outOfGas: false,
      executionRevert: { reason: 'boom', data: '0x1234' },
      trace,
      validAfter: 0,
      validUntil: 0,
    }))
    const err = await run.catch((e: unknown) => e)
    expect(err).toMatchObject({ rpcCode: -32521, data: { revertData: '0x1234' } })
    expect(readFailureTrace(err)).toBe(trace)
  })

  it("stops raising a limit the simulation cannot give (the EntryPoint's AA95) and answers the run that ran out", async () => {
    const { run, simulated } = estimate(({ callGasLimit }) =>
      callGasLimit > 1_000n
        ? { outOfGas: false, failedOp: 'AA95 out of gas', validAfter: 0, validUntil: 0 }
        : {
            outOfGas: 'callGasLimit',
            trace: { frame: frame(callGasLimit), userOperation: operation },
            validAfter: 0,
            validUntil: 0,
          },
    )
    const err = await run.catch((e: unknown) => e)
    expect(err).toMatchObject({
      rpcCode: -32521,
      shortMessage:
        'UserOperation reverted during execution phase: out of gas even with the largest call gas tried',
    })
    expect(readFailureTrace(err)?.frame.gas).toBe('0x3e8')
    expect(simulated).toEqual([1_000n, 8_000n])
  })
})
