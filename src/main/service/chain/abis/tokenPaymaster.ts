import { biconomyTokenPaymasterArtifact } from '../artifacts'

/** Our BiconomyTokenPaymaster (biconomy-protocol.md section 4.2): `getHash`, `parsePaymasterAndData`, `deposit`. */
export const tokenPaymasterAbi = biconomyTokenPaymasterArtifact.abi
