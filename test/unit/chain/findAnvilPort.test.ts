import { describe, expect, it } from 'vitest'
import {
  BROWSER_BLOCKED_PORTS,
  findAnvilPort,
  isPortInUse,
} from '../../../src/main/service/chain/anvil/findAnvilPort'
import { StartupError } from '../../../src/main/service/errors'
import { silentLogger } from '../../../src/main/service/log/logger'

describe('findAnvilPort', () => {
  it('never hands the same port to two starts of one process at once (chains of a service start together)', async () => {
    const ports = await Promise.all([
      findAnvilPort(silentLogger),
      findAnvilPort(silentLogger),
      findAnvilPort(silentLogger),
    ])
    expect(new Set(ports).size).toBe(3)
    for (const port of ports) expect(BROWSER_BLOCKED_PORTS).toContain(port)
  })

  it("tells a port taken before anvil bound it from anvil's other start failures", () => {
    expect(
      isPortInUse(
        new StartupError(
          'anvil exited during start (code 1, signal null): Error: Address already in use (os error 98)',
        ),
      ),
    ).toBe(true)
    expect(isPortInUse(new StartupError('anvil exited during start (code 1): failed to load state'))).toBe(
      false,
    )
    expect(isPortInUse('Address already in use')).toBe(false)
  })
})
