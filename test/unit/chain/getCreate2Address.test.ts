import { getContractAddress, type Hex, pad } from 'viem'
import { describe, expect, it } from 'vitest'
import { entryPointV07Artifact } from '../../../src/main/service/chain/artifacts'
import { canonicalAddresses } from '../../../src/main/service/chain/constants'
import { getCreate2Address } from '../../../src/main/service/chain/deploy/buildDeploymentPlan'

describe('getCreate2Address', () => {
  it.each([
    ['empty init code, salt 0', '0x' as Hex, undefined],
    ['a short init code and a short salt', '0x6001600101' as Hex, '0x01' as Hex],
    [
      'the EntryPoint v0.7 init code and its published salt',
      entryPointV07Artifact.bytecode as Hex,
      pad('0x2a'),
    ],
  ])('gives what viem computes (checksummed) for %s', (_, initCode, salt) => {
    expect(getCreate2Address(initCode, salt)).toBe(
      getContractAddress({
        opcode: 'CREATE2',
        from: canonicalAddresses.create2Deployer,
        salt: salt ?? pad('0x0'),
        bytecode: initCode,
      }),
    )
  })
})
