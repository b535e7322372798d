import path from 'node:path'
import { type Address, getAddress } from 'viem'
import { z } from 'zod'
import { readDataFile } from '../store/dataFolder/readDataFile'
import { writeFileAtomic } from '../util/files/writeFileAtomic'

export const FUNDED_ACCOUNTS_FILE_NAME = 'funded-accounts.json'

const FileSchema = z.object({
  version: z.literal(1),
  accounts: z.array(
    z.object({ chainId: z.number().int().positive(), address: z.string().regex(/^0x[0-9a-fA-F]{40}$/) }),
  ),
})

export type FundedAccounts = {
  /** The addresses setups funded on this chain, in the order they were first named. */
  list: (chainId: number) => Address[]
  /** Remembers addresses a setup funded (a write only when one is new). */
  remember: (chainId: number, addresses: readonly string[]) => Promise<void>
}

/**
 * The addresses applied setups funded, per chain, in `<dataDir>/funded-accounts.json` (mode 0600): the chain holds
 * their balances but not which addresses matter, and an export lists these with what they hold now.
 */
export async function openFundedAccounts(dataDir: string): Promise<FundedAccounts> {
  const file = path.join(dataDir, FUNDED_ACCOUNTS_FILE_NAME)
  const stored = await readDataFile(file, FileSchema, 'The funded accounts file')
  let accounts: { chainId: number; address: Address }[] = (stored?.accounts ?? []).map((a) => ({
    chainId: a.chainId,
    address: getAddress(a.address),
  }))
  let writing: Promise<void> = Promise.resolve()
  return {
    list: (chainId) => accounts.filter((a) => a.chainId === chainId).map((a) => a.address),
    async remember(chainId, addresses) {
      const known = new Set(accounts.filter((a) => a.chainId === chainId).map((a) => a.address))
      const added = [...new Set(addresses.map((a) => getAddress(a)))].filter((a) => !known.has(a))
      if (added.length === 0) return
      accounts = [...accounts, ...added.map((address) => ({ chainId, address }))]
      const snapshot = `${JSON.stringify({ version: 1, accounts }, null, 2)}\n`
      writing = writing.catch(() => {}).then(() => writeFileAtomic(file, snapshot, { mode: 0o600 }))
      await writing
    },
  }
}
