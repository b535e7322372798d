import type { Abi } from 'viem'
import { entryPointSimulationsV08Artifact, entryPointV08Artifact } from '../../chain/artifacts'
import { canonicalAddresses } from '../../chain/constants'
import { createPackedEntryPoint } from '../v07/createPackedEntryPoint'
import { computeUserOpHashV08 } from './computeUserOpHash'

/**
 * EntryPoint v0.8: v0.7's PackedUserOperation with an EIP-712 userOpHash, and EIP-7702 accounts (`eip7702Auth`,
 * which rides in the bundle's type-4 transaction; with the `0x7702` factory marker the userOpHash covers the delegate
 * and factoryData runs on the account, without it the authorization only delegates the account).
 */
export const entryPointV08 = createPackedEntryPoint({
  version: '0.8',
  address: canonicalAddresses.entryPointV08,
  abi: entryPointV08Artifact.abi as Abi,
  simulationsCode: entryPointSimulationsV08Artifact.deployedBytecode,
  computeUserOpHash: (packed, chainId, entryPoint, op) =>
    computeUserOpHashV08(packed, chainId, entryPoint, op.eip7702Auth?.address ?? op.eip7702Delegate),
  eip7702InitCode: true,
})
