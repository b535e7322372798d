import { readFileSync } from 'node:fs'
import { getContractAddress, type Hex, slice } from 'viem'
import { describe, expect, it } from 'vitest'
import { zooDeployments } from '../../../src/main/service/chain/accountZoo/zooDeployments'

type Record = {
  deployer: Hex
  deployments: { constant: string; address: Hex; data: Hex }[]
}
const record = JSON.parse(
  readFileSync('scripts/zooSources/coinbase-smart-wallet-v1.1.json', 'utf8'),
) as Record

/**
 * Coinbase Smart Wallet v1.1 is rebuilt from its sources (scripts/compile-coinbase-smart-wallet.mjs, which needs the
 * repositories). What it recorded must stay what the zoo deploys, and still land where viem looks for it.
 */
describe('the recorded build of Coinbase Smart Wallet v1.1', () => {
  it.each(record.deployments.map((d) => [d.constant, d] as const))(
    "%s lands at its canonical address through Safe's singleton factory and is what the zoo deploys",
    (constant, { address, data }) => {
      const landed = getContractAddress({
        opcode: 'CREATE2',
        from: record.deployer,
        salt: slice(data, 0, 32),
        bytecode: slice(data, 32),
      })
      expect(landed).toBe(address)
      const row = zooDeployments.find((d) => d.source === constant)
      expect(row?.data).toBe(data)
      expect(row?.contracts.map((c) => c.address)).toEqual([address])
    },
  )
})
