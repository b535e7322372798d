import { getContractAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { canonicalAddresses } from '../../../src/main/service/chain'
import {
  entryPointV09Artifact,
  senderCreatorV09Artifact,
  simple7702AccountV09Artifact,
} from '../../../src/main/service/chain/artifacts/v09'
import { getCreate2Address } from '../../../src/main/service/chain/deploy/buildDeploymentPlan'
import { findZeroPush32Offsets } from '../../../src/main/service/chain/deploy/patchImmutables'

/**
 * EntryPoint v0.9's contracts are recorded from the release's deployment calldata (scripts/record-entrypoint-v09.mjs,
 * which needs Alto's repository and the rc.1 npm package). CREATE2 hashes the whole creation code: what is recorded
 * is byte for byte the release exactly when it lands at the canonical addresses.
 */
describe('the recorded EntryPoint v0.9 contracts', () => {
  it.each([
    ['EntryPoint v0.9', entryPointV09Artifact, canonicalAddresses.entryPointV09],
    ['Simple7702Account v0.9', simple7702AccountV09Artifact, canonicalAddresses.simple7702AccountV09],
  ] as const)('%s lands at its canonical address through the CREATE2 deployer', (_, artifact, address) => {
    expect(getCreate2Address(artifact.bytecode, artifact.salt)).toBe(address)
    expect(artifact.address).toBe(address)
  })

  it("the SenderCreator is the EntryPoint constructor's first creation, at its canonical address", () => {
    expect(getContractAddress({ from: canonicalAddresses.entryPointV09, nonce: 1n })).toBe(
      canonicalAddresses.senderCreatorV09,
    )
    expect(senderCreatorV09Artifact.address).toBe(canonicalAddresses.senderCreatorV09)
  })

  it("keeps the EntryPoint's runtime code as the compiler emitted it: a stretch of its creation code, immutables as PUSH32 0", () => {
    const runtime = entryPointV09Artifact.deployedBytecode
    expect(entryPointV09Artifact.bytecode.includes(runtime.slice(2))).toBe(true)
    // The EIP-712 domain (cached separator, chain id, address, name and version hashes) and the SenderCreator.
    expect(findZeroPush32Offsets(runtime).length).toBeGreaterThanOrEqual(2)
    expect(entryPointV09Artifact.immutablesMasked).toBe(true)
  })
})
