import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPortInUse } from '../../../src/main/service/chain/anvil/findAnvilPort'
import { findFreePort } from '../../../src/main/service/chain/anvil/findFreePort'
import { resolveAnvilBinary } from '../../../src/main/service/chain/anvil/resolveAnvilBinary'
import {
  isStateUnloadable,
  type SpawnAnvilParameters,
  spawnAnvil,
} from '../../../src/main/service/chain/anvil/spawnAnvil'

/** Which of anvil's start failures say that its state file does not load: only those may set the state aside. */
describe("spawnAnvil's start failures", () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'opstation-spawn-failures-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const parameters = async (overrides: Partial<SpawnAnvilParameters>): Promise<SpawnAnvilParameters> => ({
    binary: resolveAnvilBinary(),
    port: await findFreePort(),
    statePath: join(dir, 'absent-state.json'),
    exitDumpPath: join(dir, `exit-dump-${Math.random()}.json`),
    stateIntervalSec: 60,
    gasLimit: 30_000_000n,
    readyTimeoutMs: 10_000,
    ...overrides,
  })
  const failureOf = async (overrides: Partial<SpawnAnvilParameters>): Promise<unknown> => {
    const started = await spawnAnvil(await parameters(overrides)).then(
      (anvil) => {
        anvil.child.kill('SIGKILL')
        return new Error('anvil started')
      },
      (err: unknown) => err,
    )
    if (started instanceof Error && started.message === 'anvil started') throw started
    return started
  }

  it.each([
    ['cut off by a hard kill', '{"block": {"number": "0x'],
    ['empty', ''],
    ['of another shape', '{"foo": 1}'],
  ])('a state file %s: anvil says it does not load', async (_, content) => {
    const statePath = join(dir, `state-${Math.random()}.json`)
    await writeFile(statePath, content)
    const err = await failureOf({ statePath })
    expect(isStateUnloadable(err)).toBe(true)
    expect(isPortInUse(err)).toBe(false)
  })

  it('a port another process holds is no word on the state file', async () => {
    const server: Server = createServer()
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    )
    try {
      const err = await failureOf({ port })
      expect(isPortInUse(err)).toBe(true)
      expect(isStateUnloadable(err)).toBe(false)
    } finally {
      server.close()
    }
  })

  it('a binary that is not anvil, or that fails at once, is no word on the state file', async () => {
    expect(isStateUnloadable(await failureOf({ binary: '/bin/false' }))).toBe(false)
    expect(isStateUnloadable(await failureOf({ binary: join(dir, 'no-such-anvil') }))).toBe(false)
  })

  it('is false for anything but a StartupError', () => {
    expect(isStateUnloadable(new Error("invalid value 'x' for '--load-state <PATH>'"))).toBe(false)
    expect(isStateUnloadable("for '--load-state <PATH>'")).toBe(false)
  })
})
