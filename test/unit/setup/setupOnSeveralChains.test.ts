import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../../src/main/service/log/logger'
import { createSetupManager } from '../../../src/main/service/setup/createSetupManager'
import { InvalidSetupError } from '../../../src/main/service/setup/InvalidSetupError'
import { parseSetup } from '../../../src/main/service/setup/readSetup'
import { ensureDefaultAccount } from '../../../src/main/service/store/accounts.repo'
import { openStore } from '../../../src/main/service/store/openStore'
import { makeTempDir } from '../../helpers/makeTempDir'

/** A setup manager over a fresh store for a service of chains 31337 and 31338 (no node: dApps and records only). */
async function startSetups() {
  const dataDir = await makeTempDir('opstation-setup-chains-')
  const store = await openStore({ dataDir })
  await ensureDefaultAccount(store)
  const setups = await createSetupManager({
    store,
    chains: { chainIds: [31337, 31338], getChain: () => undefined },
    dataDir,
    log: silentLogger,
  })
  return { store, setups }
}

const read = (input: unknown) => ({ setup: parseSetup(input, 'setup.json'), label: 'setup.json' })

describe('a setup on a service of several chains', () => {
  it('puts each dApp on the chain it names (the first chain by default), the same name once per chain', async () => {
    const { store, setups } = await startSetups()
    const setup = read({
      version: 1,
      dapps: [{ name: 'shop' }, { name: 'shop', chainId: 31338 }, { name: 'bridge', chainId: 31338 }],
    })
    const { changes } = await setups.applySetup(setup)
    expect(changes).toEqual(['dApp "shop" created', 'dApp "shop" created', 'dApp "bridge" created'])
    expect(store.data.dapps.map((d) => [d.name, d.chainId])).toEqual([
      ['shop', 31337],
      ['shop', 31338],
      ['bridge', 31338],
    ])
    // Applied again: nothing changes.
    expect((await setups.applySetup(setup)).changes).toEqual([])
    // The export names the chains and each dApp's, and applies back to the same.
    const exported = await setups.exportSetup()
    expect(exported.chains).toEqual([31337, 31338])
    expect(exported.dapps.map((d) => [d.name, d.chainId])).toEqual([
      ['shop', 31337],
      ['shop', 31338],
      ['bridge', 31338],
    ])
    expect((await setups.applySetup(read(exported))).changes).toEqual([])
  })

  it('refuses a dApp or an account on a chain the service does not run, naming the chains it runs, before any change', async () => {
    const { store, setups } = await startSetups()
    const refused = setups.applySetup(
      read({ version: 1, dapps: [{ name: 'a' }, { name: 'b', chainId: 8453 }] }),
    )
    await expect(refused).rejects.toBeInstanceOf(InvalidSetupError)
    await expect(refused).rejects.toThrow(
      'setup.json: dapps[1].chainId is 8453, a chain this Opstation does not run (it runs chains 31337 and 31338)',
    )
    expect(store.data.dapps).toEqual([])
    await expect(
      setups.applySetup(
        read({ version: 1, accounts: [{ address: `0x${'1'.repeat(40)}`, balanceEth: '1', chainId: 1 }] }),
      ),
    ).rejects.toThrow('setup.json: accounts[0].chainId is 1, a chain this Opstation does not run')
  })
})
