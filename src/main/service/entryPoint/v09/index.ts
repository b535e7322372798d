import type { Abi } from 'viem'
import { entryPointSimulationsV09Artifact, entryPointV09Artifact } from '../../chain/artifacts/v09'
import { canonicalAddresses } from '../../chain/constants'
import { createPackedEntryPoint } from '../v07/createPackedEntryPoint'
import { checkPaymasterFieldsV09 } from './checkPaymasterFields'
import { computeUserOpHashV09 } from './computeUserOpHash'
import { readEntryPointErrorV09 } from './customErrors'

/**
 * EntryPoint v0.9: v0.8's PackedUserOperation, EIP-712 hash and EIP-7702 accounts, plus `paymasterSignature` (packed
 * after paymasterData, left out of the userOpHash: account and paymaster sign in parallel), and custom errors where
 * v0.8 had FailedOp strings.
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
  readEntryPointError: readEntryPointErrorV09,
  checkPaymasterFields: checkPaymasterFieldsV09,
})
