import { entryPointArtifact } from '../artifacts'

/** EntryPoint v0.6 (`@account-abstraction/contracts@0.6.0`): handleOps, simulations, deposits, errors. */
export const entryPointAbi = entryPointArtifact.abi
