import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'
import { openStore, type Store } from '../../../src/main/service/store/openStore'
import type { SponsorshipUsage } from '../../../src/main/service/store/schema'

/** A store in a data folder of its own, each call; the folders are removed after each test of the calling file. */
export function makeFreshStores(prefix: string): () => Promise<Store> {
  const dirs: string[] = []
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
  })
  return async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `opstation-${prefix}-`))
    dirs.push(dir)
    return openStore({ dataDir: dir })
  }
}

/** A mined sponsored operation as the usage list keeps it (dApp d1 on chain 31337, block 7 unless given). */
export function makeUsage(userOpHash: string, fields: Partial<SponsorshipUsage> = {}): SponsorshipUsage {
  return {
    userOpHash,
    dappId: 'd1',
    chainId: 31337,
    paymasterId: '0x00000f79B7FaF42EEBAdbA19aCc07cD08Af44789',
    sender: '0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90',
    gasCostWei: '1000',
    success: true,
    blockNumber: 7,
    minedAt: 1_700_000_000,
    ...fields,
  }
}
