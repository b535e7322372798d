import type { Address } from 'viem'
import type { Dapp } from '../../../shared/api/dapps'
import type { EntryPointVersion } from '../../../shared/entryPointVersions'
import {
  type Chain,
  createGasTank,
  depositToGasTank,
  listGasTankVersions,
  readDepositedGasTanks,
} from '../chain'
import type { Logger } from '../log/logger'
import { markGasTanksFunded, setDappPaymasterId } from '../store/dapps.repo'
import type { Store } from '../store/openStore'

/**
 * Gives a new dApp its on-chain gas tanks: a paymasterId on the verifying paymaster of each EntryPoint version, each
 * funded with the default amount on a dev chain.
 */
export async function provisionGasTank(chain: Chain, store: Store, dapp: Dapp): Promise<void> {
  if (dapp.chainId !== chain.chainId || dapp.paymasterId) return
  const created = await createGasTank(chain)
  await setDappPaymasterId(store, dapp.id, created.paymasterId)
  if (created.balance > 0n) await markGasTanksFunded(store, dapp.id, listGasTankVersions(chain))
}

/**
 * Brings every dApp of the chain to what a first start gives it: a gas tank for one whose creation failed while the
 * chain was away, and, on a dev chain, the default deposit in each tank that never had one (a version added since
 * the dApp was made, or every tank after the chain was reset). A tank emptied on purpose stays empty. Returns the
 * number of dApps whose tanks were created or funded; one dApp's failure is logged and the others go on.
 */
export async function provisionGasTanks(chain: Chain, store: Store, log: Logger): Promise<number> {
  const changed = new Set<string>()
  const dapps = () => store.data.dapps.filter((d) => d.chainId === chain.chainId)
  for (const dapp of dapps().filter((d) => !d.paymasterId)) {
    await provisionGasTank(chain, store, dapp).then(
      () => changed.add(dapp.id),
      (err) => log.warn({ err, dapp: dapp.id }, 'gas tank not created'),
    )
  }
  if (!chain.capabilities.isDev) return changed.size
  const legacy = dapps().filter((d) => d.paymasterId && d.gasTanksFunded === undefined)
  const fromLogs = await readDepositedGasTanks(
    chain,
    legacy.map((d) => d.paymasterId as Address),
  ).catch((err) => {
    log.warn({ err }, 'could not read which gas tanks had deposits')
    return undefined
  })
  if (legacy.length > 0 && !fromLogs) return changed.size
  for (const dapp of dapps()) {
    if (!dapp.paymasterId) continue
    // Before the store kept it, the v0.6 tank was funded with the dApp; the others are read from the chain.
    const funded = new Set<EntryPointVersion>(
      dapp.gasTanksFunded ?? ['0.6', ...(fromLogs?.get(dapp.paymasterId.toLowerCase()) ?? [])],
    )
    try {
      for (const version of listGasTankVersions(chain)) {
        if (funded.has(version)) continue
        await depositToGasTank(chain, dapp.paymasterId as Address, chain.gasTankDefaultWei, version)
        funded.add(version)
        changed.add(dapp.id)
      }
    } catch (err) {
      log.warn({ err, dapp: dapp.id }, 'gas tank not funded')
    }
    await markGasTanksFunded(store, dapp.id, [...funded])
  }
  return changed.size
}
