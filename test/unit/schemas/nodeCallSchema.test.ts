import { describe, expect, it } from 'vitest'
import { describeZodError } from '../../../src/main/service/schemas/describeZodError'
import {
  describeNodeCallProblem,
  findNodeCallProblem,
  nodeParamsSchema,
} from '../../../src/main/service/schemas/nodeCallSchema'

/** `[[…[1]…]]` nested `depth` arrays deep, built from text as a client sends it (no recursion). */
const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`)

describe('calls passed on to the node', () => {
  it('stop params nested deeper than the node parses (it would never answer) or JSON.stringify survives', () => {
    expect(findNodeCallProblem('eth_call', [nested(31)])).toBeNull()
    expect(findNodeCallProblem('eth_call', [nested(32)])).toEqual({
      message: 'must be nested at most 32 levels deep',
    })
    expect(findNodeCallProblem('eth_blockNumber', nested(10_000))).not.toBeNull()
    expect(findNodeCallProblem('eth_blockNumber', { a: nested(200) })).not.toBeNull()
  })

  it('stop an eth_feeHistory block count above uint64 (anvil panics on it), in any spelling', () => {
    for (const blockCount of [
      '0x10000000000000000',
      '0x0000000000000000000000000010000000000000000',
      '18446744073709551616',
      `0x${'f'.repeat(64)}`,
      -1,
      1e21,
      'NaN',
    ]) {
      expect(findNodeCallProblem('eth_feeHistory', [blockCount, 'latest', [25, 75]])).toEqual({
        index: 0,
        message: 'blockCount must be a non-negative integer of at most 2^64 - 1 (0x-hex or decimal)',
      })
    }
    for (const blockCount of ['0x4', '0xffffffffffffffff', '18446744073709551615', 4, '0x'])
      expect(findNodeCallProblem('eth_feeHistory', [blockCount, 'latest', [25, 75]])).toBeNull()
    // The same value is no problem for a method whose params are other things.
    expect(findNodeCallProblem('eth_getBalance', ['0x10000000000000000', 'latest'])).toBeNull()
    expect(findNodeCallProblem('eth_feeHistory', [])).toBeNull()
  })

  it('name the param in the messages of both interfaces', () => {
    const problem = findNodeCallProblem('eth_feeHistory', ['0x10000000000000000'])!
    expect(describeNodeCallProblem(problem)).toBe(
      'params[0]: blockCount must be a non-negative integer of at most 2^64 - 1 (0x-hex or decimal)',
    )
    const parsed = nodeParamsSchema('eth_feeHistory').safeParse(['0x10000000000000000', 'latest'])
    expect(describeZodError(parsed.error!, 'params')).toBe(describeNodeCallProblem(problem))
    const deep = nodeParamsSchema('eth_call').safeParse([nested(40)])
    expect(describeZodError(deep.error!, 'params')).toBe('params: must be nested at most 32 levels deep')
    expect(nodeParamsSchema('eth_call').safeParse([{ to: '0x00' }, 'latest']).success).toBe(true)
  })
})
