import { keccak256, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, entryPointAbi, startChain } from '../../../src/main/service/chain'
import { getExpectedCodeHash, getZooAddress } from '../../../src/main/service/chain/accountZoo/zooContracts'
import { zooDeployments, zooEtchedDeployers } from '../../../src/main/service/chain/accountZoo/zooDeployments'
import { zooStakes } from '../../../src/main/service/chain/accountZoo/zooSetup'
import { makeDataDir } from './userOpHelpers'

const zooContracts = zooDeployments.flatMap((d) => d.contracts)

describe('the account zoo on the embedded chain', () => {
  let dataDir: Awaited<ReturnType<typeof makeDataDir>>
  let chain: Chain | undefined

  beforeAll(async () => {
    dataDir = await makeDataDir()
    chain = await startChain({ dataDir: dataDir.dir })
  }, 60_000)
  afterAll(async () => {
    await chain?.stop()
    await dataDir.remove()
  })

  it('deploys every account contract at the address the SDKs hard-code, with its recorded code hash', async () => {
    const c = chain!
    expect(c.missing).toEqual([])
    expect(c.mismatched).toEqual([])
    for (const contract of zooContracts) {
      const code = await c.publicClient.getCode({ address: contract.address })
      expect(code && keccak256(code), contract.name).toBe(getExpectedCodeHash(contract, c.chainId))
      expect(c.deployed, contract.name).toContain(contract.name)
    }
    for (const deployer of zooEtchedDeployers) {
      const code = await c.publicClient.getCode({ address: deployer.address })
      expect(code, deployer.name).toBe(deployer.code)
    }
    // A few the SDKs name in their own code (permissionless, @zerodev/sdk, Alchemy's account-kit).
    expect(getZooAddress('safe4337ModuleV07')).toBe('0x75cf11467937ce3F2f357CE24ffc3DBF8fD5c226')
    // permissionless's Safe 1.5.0 (EntryPoint v0.7): singleton, proxy factory, MultiSend, MultiSendCallOnly.
    expect(getZooAddress('safeSingletonV1_5')).toBe('0xFf51A5898e281Db6DfC7855790607438dF2ca44b')
    expect(getZooAddress('safeProxyFactoryV1_5')).toBe('0x14F2982D601c9458F93bd70B218933A6f8165e7b')
    expect(getZooAddress('safeMultiSendV1_5')).toBe('0x218543288004CD07832472D464648173c77D7eB7')
    expect(getZooAddress('safeMultiSendCallOnlyV1_5')).toBe('0xA83c336B20401Af773B6219BA5027174338D1836')
    expect(getZooAddress('kernelMetaFactory')).toBe('0xd703aaE79538628d27099B8c4f621bE4CCd142d5')
    expect(getZooAddress('lightAccountFactoryV2')).toBe('0x0000000000400CdFef5E2714E63d8040b700BC24')
    expect(getZooAddress('nexusK1ValidatorFactory')).toBe('0x00000bb19a3579F4D779215dEf97AFbd0e30DB55')
    // @biconomy/abstractjs 1.2's default (MEE 2.0.0): its versionCheck needs code at these.
    expect(getZooAddress('nexusV1_2AccountFactory')).toBe('0x000000001D1D5004a02bAfAb9de2D6CE5b7B13de')
    expect(getZooAddress('nexusV1_2Implementation')).toBe('0x000000004F43C49e93C970E84001853a70923B03')
    expect(getZooAddress('nexusV1_2Bootstrap')).toBe('0x00000000D3254452a909E4eeD47455Af7E27C289')
    expect(getZooAddress('nexusK1MeeValidator')).toBe('0x00000000d12897DDAdC2044614A9677B191A2d95')
    // getMEEVersion(MEEVersion.V1_0_0): Nexus 1.0.2's factory, implementation, bootstrap and the composable module.
    expect(getZooAddress('nexusV1_0_2MeeAccountFactory')).toBe('0x000000c3A93d2c5E02Cb053AC675665b1c4217F9')
    expect(getZooAddress('nexusV1_0_2MeeImplementation')).toBe('0x000000aC74357BFEa72BBD0781833631F732cf19')
    expect(getZooAddress('nexusV1_0_2MeeBootstrap')).toBe('0x879fa30248eeb693dcCE3eA94a743622170a3658')
    expect(getZooAddress('meeV1_0ComposableModule')).toBe('0x00000004430bB055dB66eBef6Fe5Ee1DA9668B10')
    // account-kit's defaults: createMultiOwnerModularAccount (v1) and createModularAccountV2 (semi-modular, v2).
    expect(getZooAddress('multiOwnerModularAccountFactoryV1')).toBe(
      '0x000000e92D78D90000007F0082006FDA09BD5f11',
    )
    expect(getZooAddress('multiOwnerPluginV1')).toBe('0xcE0000007B008F50d762D155002600004cD6c647')
    expect(getZooAddress('sessionKeyPluginV1')).toBe('0x0000003E0000a96de4058e1E02a62FaaeCf23d8d')
    expect(getZooAddress('modularAccountV2Factory')).toBe('0x00000000000017c61b5bEe81050EC8eFc9c6fecd')
    expect(getZooAddress('semiModularAccountBytecodeV2')).toBe('0x000000000000c5A9089039570Dd36455b5C07383')
  })

  it('stakes the factories their operators stake on mainnet (1 ETH, one day), on their EntryPoint', async () => {
    for (const { factory, entryPoint } of zooStakes) {
      const info = await chain!.publicClient.readContract({
        address: entryPoint,
        abi: entryPointAbi,
        functionName: 'getDepositInfo',
        args: [getZooAddress(factory)],
      })
      expect(info.staked, factory).toBe(true)
      expect(info.stake, factory).toBe(10n ** 18n)
      expect(info.unstakeDelaySec, factory).toBe(86_400)
    }
  })

  it("lets Kernel's factories create accounts: v2 implementations and v3 factories are allowed by their owner", async () => {
    const abi = parseAbi([
      'function isAllowedImplementation(address) view returns (bool)',
      'function approved(address) view returns (bool)',
    ])
    for (const implementation of ['kernelV2_1', 'kernelV2_2', 'kernelV2_3', 'kernelV2_4']) {
      const allowed = await chain!.publicClient.readContract({
        address: getZooAddress('kernelFactoryV2'),
        abi,
        functionName: 'isAllowedImplementation',
        args: [getZooAddress(implementation)],
      })
      expect(allowed, implementation).toBe(true)
    }
    for (const factory of [
      'kernelFactoryV3_0',
      'kernelFactoryV3_1',
      'kernelFactoryV3_2',
      'kernelFactoryV3_3',
    ]) {
      const allowed = await chain!.publicClient.readContract({
        address: getZooAddress('kernelMetaFactory'),
        abi,
        functionName: 'approved',
        args: [getZooAddress(factory)],
      })
      expect(allowed, factory).toBe(true)
    }
  })

  it('finds everything in place on the next start and deploys nothing', async () => {
    await chain!.stop()
    chain = await startChain({ dataDir: dataDir.dir })
    expect(chain.deployed).toEqual([])
    expect(chain.missing).toEqual([])
    expect(chain.mismatched).toEqual([])
  }, 60_000)
})
