import { verifyingSingletonPaymasterArtifact } from '../artifacts'

/** Biconomy VerifyingSingletonPaymaster v1.1.0: `getHash`, `depositFor`, `withdrawTo`, `getBalance`, `verifyingSigner`. */
export const verifyingPaymasterAbi = verifyingSingletonPaymasterArtifact.abi
