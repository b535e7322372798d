import { numberToHex } from 'viem'
import type { Chain } from '../types'
import { requestRpc } from './requestRpc'

/** Moves the next block's timestamp forward (`evm_increaseTime`); takes effect with the next block. */
export async function increaseTime(chain: Chain, seconds: number): Promise<void> {
  await requestRpc(chain.publicClient, 'evm_increaseTime', [numberToHex(seconds)])
}

/** Mines `blocks` blocks (default 1) now (`anvil_mine`/`hardhat_mine`, else `evm_mine`). */
export async function mine(chain: Chain, blocks = 1): Promise<void> {
  const prefix = chain.capabilities.devPrefix
  if (prefix) {
    await requestRpc(chain.publicClient, `${prefix}_mine`, [numberToHex(blocks)])
    return
  }
  for (let i = 0; i < blocks; i++) await requestRpc(chain.publicClient, 'evm_mine')
}
