import { defineEcdsaAccountV06 } from './defineEcdsaAccountV06'
import { thirdwebFactory } from './thirdwebFactory'

const factory = thirdwebFactory('thirdwebFactoryV06')

/**
 * thirdweb's account 1.5.20 (EntryPoint v0.6), as permissionless' toThirdwebSmartAccount builds it: its factory's
 * `createAccount(owner, salt)`, `execute` / `executeBatch`, the owner (the account's admin) signing the userOpHash
 * (EIP-191).
 */
export const thirdwebV06 = defineEcdsaAccountV06({
  type: 'THIRDWEB_V06',
  deploymentOf: factory.deploymentOf,
  getAddress: factory.getAddress,
})
