import type { Abi } from 'viem'
import { entryPointSimulationsV09Artifact, entryPointV09Artifact } from '../../chain/artifacts/v09'
import { canonicalAddresses } from '../../chain/constants'
import { createPackedEntryPoint } from '../v07/createPackedEntryPoint'
import { computeUserOpHashV09 } from './computeUserOpHash'

/**
 * EntryPoint v0.9: v0.8's PackedUserOperation, EIP-712 hash and EIP-7702 accounts, plus `paymasterSignature` (packed
 * after paymasterData, left out of the userOpHash: account and paymaster sign in parallel).
 */
export const entryPointV09 = createPackedEntryPoint({
  version: '0.9',
  address: canonicalAddresses.entryPointV09,
  abi: entryPointV09Artifact.abi as Abi,
  simulationsCode: entryPointSimulationsV09Artifact.deployedBytecode,
  computeUserOpHash: (packed, chainId, entryPoint, op) =>
    computeUserOpHashV09(packed, chainId, entryPoint, op.eip7702Auth?.address ?? op.eip7702Delegate),
  eip7702InitCode: true,
  paymasterSignature: true,
  bundlesFromPlainEoa: true,
  blockRanges: true,
})
