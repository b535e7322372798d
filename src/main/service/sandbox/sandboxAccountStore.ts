import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { Address, Hex } from 'viem'
import { z } from 'zod'
import { SANDBOX_ACCOUNT_TYPES, type SandboxAccountType } from '../../../shared/sandbox'
import { readDataFile } from '../store/dataFolder/readDataFile'
import { writeFileAtomic } from '../util/files/writeFileAtomic'

const StoredAccountSchema = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  type: z.enum(SANDBOX_ACCOUNT_TYPES),
  label: z.string(),
  owner: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  ownerPrivateKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  index: z.number().int().nonnegative(),
  chainId: z.number().int().positive(),
  createdAt: z.string(),
})
const FileSchema = z.object({ version: z.literal(1), accounts: z.array(StoredAccountSchema) })

export type StoredSandboxAccount = {
  address: Address
  type: SandboxAccountType
  label: string
  owner: Address
  ownerPrivateKey: Hex
  index: number
  chainId: number
  createdAt: string
}

export type SandboxAccountStore = {
  list: (chainId: number) => StoredSandboxAccount[]
  find: (chainId: number, address: string) => StoredSandboxAccount | undefined
  add: (account: StoredSandboxAccount) => Promise<void>
}

/**
 * The sandbox's smart accounts and their owner keys, in `<dataDir>/sandbox/accounts.json` (mode 0600).
 * The keys never leave the service: the console only asks it to sign.
 */
export async function openSandboxAccountStore(dataDir: string): Promise<SandboxAccountStore> {
  const folder = path.join(dataDir, 'sandbox')
  const file = path.join(folder, 'accounts.json')
  let accounts = ((await readDataFile(file, FileSchema, 'The sandbox account file'))?.accounts ??
    []) as StoredSandboxAccount[]
  let writing: Promise<void> = Promise.resolve()
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
  return {
    list: (chainId) => accounts.filter((a) => a.chainId === chainId),
    find: (chainId, address) => accounts.find((a) => a.chainId === chainId && same(a.address, address)),
    async add(account) {
      accounts = [...accounts, account]
      const snapshot = JSON.stringify({ version: 1, accounts }, null, 2)
      writing = writing.then(async () => {
        await mkdir(folder, { recursive: true, mode: 0o700 })
        await writeFileAtomic(file, snapshot, { mode: 0o600 })
      })
      await writing
    },
  }
}
