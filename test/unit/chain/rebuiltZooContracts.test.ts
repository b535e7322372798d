import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getContractAddress, type Hex, slice } from 'viem'
import { describe, expect, it } from 'vitest'
import { zooDeployments } from '../../../src/main/service/chain/accountZoo/zooDeployments'

type RebuiltRecord = {
  contract: string
  deployer: Hex
  deployments: { constant: string; address: Hex; data: Hex }[]
}
const dir = 'scripts/zooSources'
const records = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as RebuiltRecord)

/**
 * Coinbase Smart Wallet v1.1, viem's Solady account and MEE 1.0.0's ComposableExecutionModule are rebuilt from their
 * sources
 * (scripts/rebuild-zoo-contracts.mjs, which needs the repositories). What it recorded must stay what the zoo
 * deploys, and still land at the canonical addresses.
 */
describe('the contracts the zoo rebuilds from their sources', () => {
  it("are Coinbase Smart Wallet v1.1, the Solady account and MEE 1.0.0's composable module", () => {
    expect(records.flatMap((r) => r.deployments.map((d) => d.address)).sort()).toEqual(
      [
        '0x00000110dCdEdC9581cb5eCB8467282f2926534d',
        '0xBA5ED110eFDBa3D005bfC882d75358ACBbB85842',
        '0xEf80932876b5525C7385F3a4D1858b41660a2538',
        '0x5d82735936c6Cd5DE57cC3c1A799f6B2E6F933Df',
        '0x00000004430bB055dB66eBef6Fe5Ee1DA9668B10',
      ].sort(),
    )
  })

  it.each(records.flatMap((r) => r.deployments.map((d) => [d.constant, r.deployer, d] as const)))(
    '%s lands at its canonical address through its deployer and is what the zoo deploys',
    (constant, deployer, { address, data }) => {
      const landed = getContractAddress({
        opcode: 'CREATE2',
        from: deployer,
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
