import { describe, expect, it } from 'vitest'
import { collectLogs } from '../../../src/main/service/explain/collectEvents'
import type { TracedFrame } from '../../../src/main/service/explain/types'

const log = (name: string, position?: `0x${string}`) => ({
  address: '0x00000000000000000000000000000000000000aa' as const,
  topics: [name as `0x${string}`],
  data: '0x' as const,
  ...(position === undefined ? {} : { position }),
})
const frame = (fields: Partial<TracedFrame>): TracedFrame => ({
  type: 'CALL',
  from: '0x0000000000000000000000000000000000000001',
  gas: '0x0',
  gasUsed: '0x0',
  input: '0x',
  ...fields,
})

describe('collectLogs', () => {
  it("puts each log where it was emitted among its frame's calls (position), leaving out reverted frames", () => {
    const tree = frame({
      logs: [log('first', '0x0'), log('between', '0x1'), log('last', '0x3')],
      calls: [
        frame({ logs: [log('child 1')] }),
        frame({ error: 'execution reverted', logs: [log('undone')] }),
        frame({ calls: [frame({ logs: [log('grandchild')] })] }),
      ],
    })
    expect(collectLogs(tree).map((l) => l.topics[0])).toEqual([
      'first',
      'child 1',
      'between',
      'grandchild',
      'last',
    ])
  })

  it('walks only the calls and keeps only the logs the filter names', () => {
    const own = frame({ logs: [log('own')] })
    const tree = frame({
      logs: [log('kept', '0x0'), log('dropped', '0x2')],
      calls: [own, frame({ logs: [log('other')] })],
    })
    const events = collectLogs(tree, {
      call: (c) => c === own,
      log: (l) => (l.topics[0] as string) !== 'dropped',
    })
    expect(events.map((l) => l.topics[0])).toEqual(['kept', 'own'])
  })
})
