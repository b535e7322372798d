import { opstationTokenPaymasterArtifact, opstationVerifyingPaymasterArtifact } from '../artifacts'

/** Opstation's verifying paymaster of EntryPoint v0.7 and v0.8 (`contracts/packed/`), with per-dApp gas tanks. */
export const packedVerifyingPaymasterAbi = opstationVerifyingPaymasterArtifact.abi
/** Opstation's token paymaster (ERC20 mode) of EntryPoint v0.7 and v0.8. */
export const packedTokenPaymasterAbi = opstationTokenPaymasterArtifact.abi
