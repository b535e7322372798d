import { defineEcdsaAccountV07 } from './defineEcdsaAccountV07'
import { thirdwebFactory } from './thirdwebFactory'

const factory = thirdwebFactory('thirdwebFactoryV07')

/**
 * thirdweb's account 1.5.20 (EntryPoint v0.7), as permissionless' toThirdwebSmartAccount builds it: its factory's
 * `createAccount(owner, salt)`, `execute` / `executeBatch`, the owner (the account's admin) signing the userOpHash
 * (EIP-191).
 */
export const thirdwebV07 = defineEcdsaAccountV07({
  type: 'THIRDWEB_V07',
  getAddress: factory.getAddress,
  deploymentOf: (_chain, owner, index) => factory.deploymentOf(owner, index),
})
