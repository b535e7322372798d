import {
  ecdsaOwnershipRegistryModuleArtifact,
  smartAccountArtifact,
  smartAccountFactoryArtifact,
} from '../artifacts'

/** Biconomy Smart Account v2 implementation (`execute_ncC`, `executeBatch_y6U`, `init`, ...). */
export const smartAccountAbi = smartAccountArtifact.abi
/** Biconomy Smart Account v2 factory (`deployCounterFactualAccount`, `getAddressForCounterFactualAccount`). */
export const smartAccountFactoryAbi = smartAccountFactoryArtifact.abi
/** ECDSA ownership module (`initForSmartAccount`, `getOwner`). */
export const ecdsaModuleAbi = ecdsaOwnershipRegistryModuleArtifact.abi
