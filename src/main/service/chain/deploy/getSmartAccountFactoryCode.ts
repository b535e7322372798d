import type { Hex } from 'viem'
import { proxyArtifact, sdkProxyArtifact, smartAccountFactoryArtifact } from '../artifacts'
import { canonicalAddresses } from '../constants'
import { patchImmutables } from './patchImmutables'

/**
 * Replaces every copy of our compiled Proxy creation code inside the factory's runtime code (viaIR keeps one
 * per function that uses `type(Proxy).creationCode`) with the SDK's `PROXY_CREATION_CODE`. The two differ only
 * in the solc metadata hash and have the same length, so no offset moves. Without this the factory would deploy
 * accounts at addresses other than the ones the SDK computes off-chain (AA14 initCode must return sender).
 */
export function patchProxyCreationCode(factoryCode: Hex): Hex {
  const ours = proxyArtifact.bytecode.slice(2).toLowerCase()
  const sdk = sdkProxyArtifact.creationCode.slice(2).toLowerCase()
  if (ours.length !== sdk.length) {
    throw new Error(
      'Compiled Proxy creation code and the SDK constant differ in length; cannot patch the factory',
    )
  }
  const parts = factoryCode.slice(2).toLowerCase().split(ours)
  if (parts.length < 2) throw new Error('Proxy creation code not found in the factory runtime code')
  return `0x${parts.join(sdk)}`
}

/** Runtime code of the SA v2 factory at its canonical address: immutables patched, SDK proxy bytes embedded. */
export function getSmartAccountFactoryCode(): Hex {
  const code = patchImmutables(
    smartAccountFactoryArtifact.deployedBytecode,
    smartAccountFactoryArtifact.immutables,
    {
      basicImplementation: canonicalAddresses.smartAccountImplementation,
      minimalHandler: canonicalAddresses.fallbackHandler,
    },
  )
  return patchProxyCreationCode(code)
}
