import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  buildAnvilArgs,
  HISTORICAL_STATES,
  HISTORY_BLOCKS,
} from '../../../src/main/service/chain/anvil/spawnAnvil'
import { makeTempDir } from '../../helpers/makeTempDir'

function parametersIn(dir: string) {
  return {
    binary: 'anvil',
    port: 8545,
    chainId: 31337,
    statePath: path.join(dir, 'anvil-state.json'),
    exitDumpPath: path.join(dir, 'anvil-exit-dump.json'),
    stateIntervalSec: 60,
    gasLimit: 100_000_000n,
  }
}

const flagValue = (args: string[], flag: string) =>
  args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined

describe('buildAnvilArgs', () => {
  it("never lets anvil write the service's state file: it dumps to its own file and loads the service's", async () => {
    const p = parametersIn(await makeTempDir('opstation-anvil-args-'))
    await writeFile(p.statePath, '{}')
    const args = buildAnvilArgs(p)
    expect(flagValue(args, '--load-state')).toBe(p.statePath)
    expect(flagValue(args, '--dump-state')).toBe(p.exitDumpPath)
    expect(flagValue(args, '--state-interval')).toBe('60')
    expect(args).not.toContain('--state')
  })

  it('loads nothing on a fresh data folder', async () => {
    const args = buildAnvilArgs(parametersIn(await makeTempDir('opstation-anvil-args-')))
    expect(args).not.toContain('--load-state')
  })

  it('keeps the states of recent blocks in memory and none on disk (nothing left under ~/.foundry/anvil/tmp)', async () => {
    const args = buildAnvilArgs(parametersIn(await makeTempDir('opstation-anvil-args-')))
    expect(flagValue(args, '--prune-history')).toBe(String(HISTORICAL_STATES))
  })

  it('keeps the transactions and receipts of the last HISTORY_BLOCKS blocks in memory, not of every block', async () => {
    const args = buildAnvilArgs(parametersIn(await makeTempDir('opstation-anvil-args-')))
    expect(flagValue(args, '--transaction-block-keeper')).toBe(String(HISTORY_BLOCKS))
  })
})
