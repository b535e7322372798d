import { describe, expect, it } from 'vitest'
import { toReplayFields, toUserOperation } from '../../../../src/renderer/src/features/sandbox/useReplayStore'

const auth = {
  chainId: '0x1',
  address: '0x0000000000000000000000000000000000000007',
  nonce: '0x0',
  yParity: '0x1',
  r: '0x2',
  s: '0x3',
}

describe('the fields of an operation opened in the Sandbox', () => {
  it('edits strings as they are and objects (eip7702Auth) as JSON, and reads them back unchanged', () => {
    const op = { sender: '0xabc', callGasLimit: '0x30d40', eip7702Auth: auth, paymaster: undefined }
    const fields = toReplayFields(op)
    expect(fields).toEqual({ sender: '0xabc', callGasLimit: '0x30d40', eip7702Auth: JSON.stringify(auth) })
    expect(toUserOperation(fields)).toEqual({ sender: '0xabc', callGasLimit: '0x30d40', eip7702Auth: auth })
  })

  it('leaves out a field emptied in the form, and trims the others', () => {
    expect(toUserOperation({ sender: ' 0xabc ', paymasterData: '  ' })).toEqual({ sender: '0xabc' })
  })

  it('names the field whose JSON does not parse', () => {
    expect(() => toUserOperation({ eip7702Auth: '{"chainId":' })).toThrow(/eip7702Auth is not valid JSON/)
  })
})
