import type { Chain } from '../types'
import { requestRpc } from './requestRpc'

/** Turns automine (a block per transaction) on or off (`evm_setAutomine`). */
export async function setAutomine(chain: Chain, enabled: boolean): Promise<void> {
  await requestRpc(chain.publicClient, 'evm_setAutomine', [enabled])
}

/** Mines a block every `seconds` seconds (`evm_setIntervalMining`); 0 switches interval mining off. */
export async function setIntervalMining(chain: Chain, seconds: number): Promise<void> {
  // anvil takes seconds, hardhat/EDR milliseconds.
  const value = chain.capabilities.devPrefix === 'hardhat' ? seconds * 1000 : seconds
  await requestRpc(chain.publicClient, 'evm_setIntervalMining', [value])
}
