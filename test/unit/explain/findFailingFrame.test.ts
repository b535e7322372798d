import { describe, expect, it } from 'vitest'
import { findFailingFrame } from '../../../src/main/service/explain/explainPhases'
import type { TracedFrame } from '../../../src/main/service/explain/types'

const frame = (to: string, fields: Partial<TracedFrame> = {}): TracedFrame => ({
  type: 'CALL',
  from: '0x0000000000000000000000000000000000000001',
  to: to as TracedFrame['to'],
  gas: '0x0',
  gasUsed: '0x0',
  input: '0x',
  ...fields,
})
const revert = '0xcf479181'

describe('findFailingFrame', () => {
  it('walks down to the callee whose revert data bubbled up unchanged', () => {
    const ledger = frame('0x00000000000000000000000000000000000000bb', {
      error: 'execution reverted',
      output: revert,
    })
    const vault = frame('0x00000000000000000000000000000000000000aa', {
      error: 'execution reverted',
      output: revert,
      calls: [frame('0x00000000000000000000000000000000000000cc'), ledger],
    })
    expect(
      findFailingFrame(
        frame('0x00000000000000000000000000000000000000a0', {
          error: 'execution reverted',
          output: revert,
          calls: [vault],
        }),
      ),
    ).toBe(ledger)
  })

  it('walks down to an out-of-gas callee under an empty revert', () => {
    const burner = frame('0x00000000000000000000000000000000000000bb', { error: 'out of gas' })
    const account = frame('0x00000000000000000000000000000000000000aa', {
      error: 'execution reverted',
      calls: [burner],
    })
    expect(findFailingFrame(account)).toBe(burner)
  })

  it('stops at a caller that caught a failed call and reverted with a reason of its own', () => {
    const inner = frame('0x00000000000000000000000000000000000000bb', {
      error: 'execution reverted',
      output: revert,
    })
    const catcher = frame('0x00000000000000000000000000000000000000aa', {
      error: 'execution reverted',
      output: '0x08c379a0',
      calls: [inner],
    })
    expect(findFailingFrame(catcher)).toBe(catcher)
  })
})
