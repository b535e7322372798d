import type { Address } from 'viem'
import type { UserOperationRecord } from '../../../shared/api/userOperations'
import { nameDeployedAccount } from '../chain/accountZoo/nameAccount'
import type { Chain } from '../chain/types'
import type { UserOperationLog } from '../store/userOperations.repo'

/**
 * Names the account type of the records that have none yet, from the chain, as the console shows them. The bundler
 * names an operation that deploys or delegates its account from its factory or delegate; an already deployed
 * account's type takes an eth_getCode and one to three eth_getStorageAt (nameDeployedAccount), read here, once per
 * record (its name, or null when the chain names none, is kept in the record) and once per sender of a page, instead
 * of on every eth_sendUserOperation. Read when first shown, the name is the account's implementation then: an upgrade
 * or a new EIP-7702 delegation shows in the records shown after it. Without a chain, or with the node away, the
 * records stay unnamed (and are named when next shown).
 */
export async function nameRecordAccounts(
  records: UserOperationRecord[],
  chain: Chain | undefined,
  log: UserOperationLog | undefined,
): Promise<void> {
  const unnamed = records.filter((r) => r.account === undefined)
  if (!chain || unnamed.length === 0) return
  const bySender = new Map<string, Promise<string | null | undefined>>()
  const nameOf = (sender: Address) => {
    const key = sender.toLowerCase()
    let name = bySender.get(key)
    if (!name) {
      name = nameDeployedAccount(chain, sender).catch(() => undefined)
      bySender.set(key, name)
    }
    return name
  }
  await Promise.all(
    unnamed.map(async (record) => {
      const name = await nameOf(record.sender as Address)
      if (name === undefined) return
      record.account = name
      log?.keepAccountName(record.userOpHash, name)
    }),
  )
}
