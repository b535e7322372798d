import type { Address, Hash, Hex } from 'viem'
import type { SandboxAccountType } from '../../../../shared/sandbox'
import type { Chain } from '../../chain/types'
import type { EntryPointModule } from '../../entryPoint'
import type { StoredSandboxAccount } from '../sandboxAccountStore'

export type Call = { to: Address; value: bigint; data: Hex }

/** An operation in its EntryPoint version's RPC form (quantities as 0x-hex). */
export type WireOperation = Record<string, unknown>

/**
 * One sandbox account type (a folder entry per type): where its address comes from, how its first operation
 * deploys it, how calls are encoded, and how its owner signs. The routes never branch on the type.
 */
export type SandboxAccountKind = {
  readonly type: SandboxAccountType
  readonly entryPoint: EntryPointModule
  /** The account's address for this owner (counterfactual until deployed). */
  getAddress(chain: Chain, owner: Address, index: number): Promise<Address>
  isDeployed(chain: Chain, account: StoredSandboxAccount): Promise<boolean>
  encodeCalls(calls: Call[]): Hex
  /** The operation to estimate and sponsor: deployment fields while undeployed, a dummy signature, no paymaster. */
  buildUserOperation(
    chain: Chain,
    account: StoredSandboxAccount,
    parts: {
      callData: Hex
      nonce: bigint
      fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
      deployed: boolean
    },
  ): Promise<WireOperation>
  /** Parses the operation (throws -32602-style input errors), signs its userOpHash as the owner, returns it signed. */
  signUserOperation(
    chain: Chain,
    account: StoredSandboxAccount,
    userOperation: unknown,
  ): Promise<{ userOperation: WireOperation; userOpHash: Hash; signature: Hex }>
}
