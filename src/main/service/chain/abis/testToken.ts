import { testTokenArtifact } from '../artifacts'

/** ERC20 test token with an open `mint(to, amount)`. */
export const testTokenAbi = testTokenArtifact.abi
