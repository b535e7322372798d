import type { Abi } from 'viem'
import { entryPointSimulationsV07Artifact, entryPointV07Artifact } from '../../chain/artifacts'
import { canonicalAddresses } from '../../chain/constants'
import { computeUserOpHashV07 } from './computeUserOpHash'
import { createPackedEntryPoint } from './createPackedEntryPoint'

/** EntryPoint v0.7 (`PackedUserOperation`, hash over abi.encode, simulations through EntryPointSimulations). */
export const entryPointV07 = createPackedEntryPoint({
  version: '0.7',
  address: canonicalAddresses.entryPointV07,
  abi: entryPointV07Artifact.abi as Abi,
  simulationsCode: entryPointSimulationsV07Artifact.deployedBytecode,
  computeUserOpHash: (packed, chainId, entryPoint) => computeUserOpHashV07(packed, chainId, entryPoint),
  eip7702InitCode: false,
})

export type { Eip7702Auth, UserOperationV07 } from './userOperation'
