import { simpleAccountArtifact, simpleAccountFactoryArtifact } from '../artifacts'

/** v0.6 SimpleAccount (`execute`, `executeBatch`). */
export const simpleAccountAbi = simpleAccountArtifact.abi
/** v0.6 SimpleAccountFactory (`createAccount`, `getAddress`). */
export const simpleAccountFactoryAbi = simpleAccountFactoryArtifact.abi
