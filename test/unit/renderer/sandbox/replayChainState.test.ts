import { describe, expect, it } from 'vitest'
import { withSenderState } from '../../../../src/renderer/src/features/sandbox/replayChainState'

const v07 = {
  sender: '0x00000000000000000000000000000000000000aa',
  nonce: '0x0',
  factory: '0x00000000000000000000000000000000000000f0',
  factoryData: '0x1234',
  callData: '0xb61d27f6',
}

describe('an operation from Activity brought up to date with the chain', () => {
  it("takes the sender's next nonce and drops the v0.7 factory once the account has code", () => {
    const { fields, changes } = withSenderState(v07, { nonce: 1n, deployed: true })
    expect(fields).toEqual({ sender: v07.sender, nonce: '0x1', callData: '0xb61d27f6' })
    expect(changes).toEqual([
      "nonce 0x0 → 0x1 (the sender's next)",
      'no deployment: the account has code now',
    ])
  })

  it('empties a v0.6 initCode once the account has code, and keeps a deployment the chain still needs', () => {
    const v06 = { sender: v07.sender, nonce: '0x2', initCode: '0xf0f0', callData: '0x' }
    expect(withSenderState(v06, { nonce: 2n, deployed: true }).fields.initCode).toBe('0x')
    expect(withSenderState(v06, { nonce: 2n, deployed: false })).toEqual({ fields: v06, changes: [] })
  })

  it('keeps the EIP-7702 factory marker, which is no deployment', () => {
    const delegated = { ...v07, factory: '0x7702', factoryData: '0x' }
    expect(withSenderState(delegated, { nonce: 0n, deployed: true })).toEqual({
      fields: delegated,
      changes: [],
    })
  })
})
