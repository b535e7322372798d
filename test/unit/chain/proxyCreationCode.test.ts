import {
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  pad,
  toHex,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { ecdsaModuleAbi, smartAccountAbi } from '../../../src/main/service/chain'
import {
  proxyArtifact,
  sdkProxyArtifact,
  smartAccountFactoryArtifact,
} from '../../../src/main/service/chain/artifacts'
import { canonicalAddresses } from '../../../src/main/service/chain/constants'
import {
  getSmartAccountFactoryCode,
  patchProxyCreationCode,
} from '../../../src/main/service/chain/deploy/getSmartAccountFactoryCode'

/** The solc CBOR metadata tail: 0xa2 0x64 'ipfs' 0x58 0x22 <34 bytes> 0x64 'solc' 0x43 <3 bytes> 0x0033 = 53 bytes. */
const metadataBytes = 53

describe('Proxy creation code used by the SA v2 factory', () => {
  it('differs from the SDK PROXY_CREATION_CODE only in the solc metadata hash', () => {
    const ours = proxyArtifact.bytecode
    const sdk = sdkProxyArtifact.creationCode
    expect(ours.length).toBe(sdk.length)
    expect(ours).not.toBe(sdk)
    // Both end with the metadata of solc 0.8.17 and agree on everything before it.
    const cut = ours.length - metadataBytes * 2
    expect(ours.slice(0, cut)).toBe(sdk.slice(0, cut))
    expect(ours.endsWith('64736f6c634300081100' + '33')).toBe(true)
    expect(sdk.endsWith('64736f6c634300081100' + '33')).toBe(true)
  })

  it('is replaced by the SDK bytes everywhere in the factory runtime code, without moving anything', () => {
    const compiled = smartAccountFactoryArtifact.deployedBytecode.toLowerCase()
    const patched = patchProxyCreationCode(smartAccountFactoryArtifact.deployedBytecode)
    const ours = proxyArtifact.bytecode.slice(2).toLowerCase()
    const sdk = sdkProxyArtifact.creationCode.slice(2).toLowerCase()
    expect(patched.length).toBe(compiled.length)
    expect(compiled.split(ours).length - 1).toBeGreaterThan(0)
    expect(patched.split(ours).length - 1).toBe(0)
    expect(patched.split(sdk).length - 1).toBe(compiled.split(ours).length - 1)
    expect(getSmartAccountFactoryCode().includes(sdk)).toBe(true)
  })

  it('gives the SDK address of the protocol doc example with the SDK bytes (owner anvil #1, index 0)', () => {
    const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const setup = encodeFunctionData({
      abi: ecdsaModuleAbi,
      functionName: 'initForSmartAccount',
      args: [owner],
    })
    const init = encodeFunctionData({
      abi: smartAccountAbi,
      functionName: 'init',
      args: [canonicalAddresses.fallbackHandler, canonicalAddresses.ecdsaModule, setup],
    })
    const salt = keccak256(concat([keccak256(init), pad(toHex(0), { size: 32 })]))
    const address = (creationCode: `0x${string}`) =>
      getContractAddress({
        opcode: 'CREATE2',
        from: canonicalAddresses.smartAccountFactory,
        salt,
        bytecode: concat([
          creationCode,
          encodeAbiParameters([{ type: 'uint256' }], [BigInt(canonicalAddresses.smartAccountImplementation)]),
        ]),
      })
    expect(address(sdkProxyArtifact.creationCode)).toBe('0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90')
    expect(address(proxyArtifact.bytecode)).not.toBe('0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90')
  })
})
