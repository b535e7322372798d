import type { Hex } from 'viem'
import { ChainError } from '../../errors'
import type { Chain } from '../types'
import { requestRpc } from './requestRpc'

/** Takes a state snapshot (`evm_snapshot`); revert to it with `revert(chain, id)`. */
export async function snapshot(chain: Chain): Promise<Hex> {
  return requestRpc<Hex>(chain.publicClient, 'evm_snapshot')
}

/** Reverts to a snapshot (`evm_revert`). A snapshot can be reverted to once. */
export async function revert(chain: Chain, id: Hex): Promise<void> {
  const ok = await requestRpc<boolean>(chain.publicClient, 'evm_revert', [id])
  if (!ok) throw new ChainError(`Snapshot ${id} could not be reverted to (unknown or already used)`)
}
