import { type Abi, pad } from 'viem'
import { entryPointSimulationsV08Artifact, entryPointV08Artifact } from '../../chain/artifacts'
import { canonicalAddresses } from '../../chain/constants'
import { createPackedEntryPoint } from '../v07/createPackedEntryPoint'
import { computeUserOpHashV08 } from './computeUserOpHash'

/**
 * EntryPoint v0.8: v0.7's PackedUserOperation with an EIP-712 userOpHash, and EIP-7702 accounts (`eip7702Auth`
 * with the `0x7702` factory marker; the authorization rides in the bundle's type-4 transaction).
 */
export const entryPointV08 = createPackedEntryPoint({
  version: '0.8',
  address: canonicalAddresses.entryPointV08,
  abi: entryPointV08Artifact.abi as Abi,
  simulationsCode: entryPointSimulationsV08Artifact.deployedBytecode,
  computeUserOpHash: (packed, chainId, entryPoint, op) =>
    computeUserOpHashV08(packed, chainId, entryPoint, op.eip7702Auth?.address ?? op.eip7702Delegate),
  eip7702: true,
  // EntryPointSimulations 0.8.0: `_senderCreator` and `__domainSeparatorV4`, after the EntryPoint's deposits,
  // nonces and EIP-712 name/version fallbacks (read off its traces: the slots simulateValidation writes first).
  simulationOnlySlots: [pad('0x04', { size: 32 }), pad('0x05', { size: 32 })],
})
