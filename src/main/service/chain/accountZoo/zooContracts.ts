import type { Address, Hex } from 'viem'
import { canonicalAddresses } from '../constants'
import { type ZooDeployment, zooDeployments, zooEtchedDeployers } from './zooDeployments'

export type ZooContractName = string

/** The account families of the zoo, as the SDKs name them. */
export type ZooAccountFamily =
  | 'safe'
  | 'kernel'
  | 'light'
  | 'trust'
  | 'etherspot'
  | 'thirdweb'
  | 'nexus'
  | 'coinbase'
  | 'alchemy'
  | 'solady'

/** The deployer each deployment is sent to. */
export function getZooDeployerAddress(deployer: ZooDeployment['deployer']): Address {
  if (deployer === 'create2Deployer') return canonicalAddresses.create2Deployer
  const etched = zooEtchedDeployers.find((d) => d.name === deployer)
  if (!etched) throw new Error(`unknown zoo deployer ${deployer}`)
  return etched.address
}

/**
 * The runtime code hash the contract must have on this chain, or null when the recorded data cannot say (its code
 * holds the chain id, and this chain id was not recorded): then only its presence is checked.
 */
export function getExpectedCodeHash(
  contract: ZooDeployment['contracts'][number],
  chainId: number,
): Hex | null {
  if (typeof contract.codeHash === 'string') return contract.codeHash
  return contract.codeHash[String(chainId)] ?? null
}

/** The canonical address of a zoo contract, by its recorded name (e.g. `safe4337ModuleV07`). */
export function getZooAddress(name: ZooContractName): Address {
  for (const deployment of zooDeployments) {
    const contract = deployment.contracts.find((c) => c.name === name)
    if (contract) return contract.address
  }
  throw new Error(`not in the account zoo: ${name}`)
}
