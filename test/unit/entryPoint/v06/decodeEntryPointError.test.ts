import { randomBytes } from 'node:crypto'
import { decodeErrorResult, encodeErrorResult, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { entryPointAbi } from '../../../../src/main/service/chain/abis/entryPoint'
import { decodeEntryPointError } from '../../../../src/main/service/entryPoint/v06/decodeEntryPointError'

const randomHex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}` as Hex
const randomUint = (bits: number) => BigInt(randomHex(bits / 8))

/** What viem decodes, without the ABI item (compared separately by name). */
const viaViem = (data: Hex) => {
  const decoded = decodeErrorResult({ abi: entryPointAbi, data })
  return { errorName: decoded.errorName, args: decoded.args }
}
const viaOurs = (data: Hex) => {
  const decoded = decodeEntryPointError(data)
  return { errorName: decoded.errorName, args: decoded.args }
}

describe('decodeEntryPointError', () => {
  it('decodes ValidationResult exactly as viem does, for empty and long paymaster contexts', () => {
    for (const contextBytes of [0, 1, 31, 32, 33, 200]) {
      const data = encodeErrorResult({
        abi: entryPointAbi,
        errorName: 'ValidationResult',
        args: [
          {
            preOpGas: randomUint(64),
            prefund: randomUint(128),
            sigFailed: contextBytes % 2 === 1,
            validAfter: Number(randomUint(32)),
            validUntil: 0xffff_ffff_ffff,
            paymasterContext: contextBytes === 0 ? '0x' : randomHex(contextBytes),
          },
          { stake: randomUint(128), unstakeDelaySec: randomUint(32) },
          { stake: 0n, unstakeDelaySec: 0n },
          { stake: randomUint(256), unstakeDelaySec: 86_400n },
        ],
      })
      expect(viaOurs(data)).toEqual(viaViem(data))
    }
  })

  it('decodes ExecutionResult exactly as viem does', () => {
    for (const resultBytes of [0, 4, 68]) {
      const data = encodeErrorResult({
        abi: entryPointAbi,
        errorName: 'ExecutionResult',
        args: [
          randomUint(64),
          randomUint(128),
          Number(randomUint(32)),
          Number(randomUint(48)),
          resultBytes > 0,
          resultBytes === 0 ? '0x' : randomHex(resultBytes),
        ],
      })
      expect(viaOurs(data)).toEqual(viaViem(data))
    }
  })

  it('decodes FailedOp reasons exactly as viem does, unicode included', () => {
    for (const reason of ["AA21 didn't pay prefund", '', 'AA33 reverted: ünïcødé ✓', 'x'.repeat(100)]) {
      const data = encodeErrorResult({ abi: entryPointAbi, errorName: 'FailedOp', args: [3n, reason] })
      expect(viaOurs(data)).toEqual(viaViem(data))
    }
  })

  it('leaves other EntryPoint errors and malformed data to viem (which throws on what it cannot decode)', () => {
    const data = encodeErrorResult({
      abi: entryPointAbi,
      errorName: 'SenderAddressResult',
      args: [randomHex(20)],
    })
    expect(viaOurs(data)).toEqual(viaViem(data))
    const failed = encodeErrorResult({
      abi: entryPointAbi,
      errorName: 'FailedOp',
      args: [0n, 'AA10 sender already constructed'],
    })
    // Cut inside the reason: the layout check fails and viem reports it.
    const truncated = failed.slice(0, failed.length - 64) as Hex
    expect(() => decodeEntryPointError(truncated)).toThrow()
  })
})
