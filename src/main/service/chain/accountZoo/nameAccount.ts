import { type Address, decodeFunctionData, getContractAddress, type Hex, parseAbi } from 'viem'
import { canonicalAddresses } from '../constants'
import type { Chain } from '../types'
import { getZooAddress } from './zooContracts'

/** The first contract an address creates (a factory constructor's `new Account(...)`: its implementation). */
const firstCreatedBy = (address: Address) => getContractAddress({ from: address, nonce: 1n })

type AccountNames = { byFactory: Map<string, string>; byImplementation: Map<string, string> }

let names: AccountNames | undefined

/**
 * The account types Opstation knows: by the factory that deploys them, and by the implementation their proxy (or
 * EIP-7702 delegation) points to. Kernel v3's factories are named through the meta factory's `deployWithFactory`.
 */
function getAccountNames(): AccountNames {
  if (names) return names
  const zoo = (name: string) => getZooAddress(name).toLowerCase()
  const byFactory = new Map<string, string>([
    [canonicalAddresses.simpleAccountFactory.toLowerCase(), 'SimpleAccount v0.6'],
    [canonicalAddresses.simpleAccountFactoryV07.toLowerCase(), 'SimpleAccount v0.7'],
    [canonicalAddresses.simpleAccountFactoryV08.toLowerCase(), 'SimpleAccount v0.8'],
    [canonicalAddresses.smartAccountFactory.toLowerCase(), 'Biconomy Smart Account v2'],
    [zoo('safeProxyFactory'), 'Safe 1.4.1'],
    [zoo('safeProxyFactoryV1_5'), 'Safe 1.5.0'],
    [zoo('kernelFactoryV2'), 'Kernel v2'],
    [zoo('kernelMetaFactory'), 'Kernel v3'],
    [zoo('kernelFactoryV3_0'), 'Kernel v3.0'],
    [zoo('kernelFactoryV3_1'), 'Kernel v3.1'],
    [zoo('kernelFactoryV3_2'), 'Kernel v3.2'],
    [zoo('kernelFactoryV3_3'), 'Kernel v3.3'],
    [zoo('lightAccountFactoryV1_1'), 'LightAccount v1.1.0'],
    [zoo('lightAccountFactoryV2'), 'LightAccount v2.0.0'],
    [zoo('trustFactory'), 'Trust (Barz)'],
    [zoo('etherspotWalletFactory'), 'Etherspot modular wallet'],
    [zoo('etherspotWalletFactoryV1'), 'Etherspot modular wallet'],
    [zoo('thirdwebFactoryV06'), 'thirdweb'],
    [zoo('thirdwebFactoryV07'), 'thirdweb'],
    [zoo('nexusK1ValidatorFactory'), 'Nexus 1.0'],
    [zoo('coinbaseSmartWalletFactoryV1'), 'Coinbase Smart Wallet v1'],
    [zoo('coinbaseSmartWalletFactoryV1_1'), 'Coinbase Smart Wallet v1.1'],
    [zoo('nexusV1_2AccountFactory'), 'Nexus 1.2'],
    [zoo('nexusV1_0_2MeeAccountFactory'), 'Nexus 1.0'],
    [zoo('multiOwnerModularAccountFactoryV1'), 'Modular Account v1'],
    [zoo('multisigModularAccountFactoryV1'), 'Modular Account v1'],
    [zoo('modularAccountV2Factory'), 'Modular Account v2'],
    [zoo('soladyAccountFactoryV07'), 'Solady account'],
  ])
  const byImplementation = new Map<string, string>([
    [firstCreatedBy(canonicalAddresses.simpleAccountFactory).toLowerCase(), 'SimpleAccount v0.6'],
    [firstCreatedBy(canonicalAddresses.simpleAccountFactoryV07).toLowerCase(), 'SimpleAccount v0.7'],
    [firstCreatedBy(canonicalAddresses.simpleAccountFactoryV08).toLowerCase(), 'SimpleAccount v0.8'],
    [canonicalAddresses.smartAccountImplementation.toLowerCase(), 'Biconomy Smart Account v2'],
    [canonicalAddresses.simple7702AccountV08.toLowerCase(), 'Simple7702Account (EIP-7702)'],
    [canonicalAddresses.simple7702AccountV09.toLowerCase(), 'Simple7702Account v0.9 (EIP-7702)'],
    [zoo('safeSingleton'), 'Safe 1.4.1'],
    [zoo('safeSingletonV1_5'), 'Safe 1.5.0'],
    [zoo('kernelV2_1'), 'Kernel v2.1'],
    [zoo('kernelV2_2'), 'Kernel v2.2'],
    [zoo('kernelV2_3'), 'Kernel v2.3'],
    [zoo('kernelV2_4'), 'Kernel v2.4'],
    [zoo('kernelV3_0'), 'Kernel v3.0'],
    [zoo('kernelV3_1'), 'Kernel v3.1'],
    [zoo('kernelV3_2'), 'Kernel v3.2'],
    [zoo('kernelV3_3'), 'Kernel v3.3'],
    [zoo('lightAccountV1_1'), 'LightAccount v1.1.0'],
    [zoo('lightAccountV2'), 'LightAccount v2.0.0'],
    [zoo('etherspotWallet'), 'Etherspot modular wallet'],
    [zoo('etherspotWalletV1'), 'Etherspot modular wallet'],
    [zoo('nexusImplementation'), 'Nexus 1.0'],
    [zoo('coinbaseSmartWalletV1'), 'Coinbase Smart Wallet v1'],
    [zoo('coinbaseSmartWalletV1_1'), 'Coinbase Smart Wallet v1.1'],
    [zoo('nexusV1_2Implementation'), 'Nexus 1.2'],
    [zoo('nexusV1_0_2MeeImplementation'), 'Nexus 1.0'],
    [zoo('modularAccountV1'), 'Modular Account v1'],
    [zoo('semiModularAccountBytecodeV2'), 'Modular Account v2'],
    [zoo('soladyAccountV07'), 'Solady account'],
    [firstCreatedBy(getZooAddress('thirdwebFactoryV06')).toLowerCase(), 'thirdweb'],
    [firstCreatedBy(getZooAddress('thirdwebFactoryV07')).toLowerCase(), 'thirdweb'],
  ])
  names = { byFactory, byImplementation }
  return names
}

/** Every factory and implementation of a known account type, with the type's name (for naming them in a trace). */
export function listAccountContracts(): {
  address: Address
  name: string
  role: 'factory' | 'implementation'
}[] {
  const { byFactory, byImplementation } = getAccountNames()
  return [
    ...[...byFactory].map(([address, name]) => ({
      address: address as Address,
      name,
      role: 'factory' as const,
    })),
    ...[...byImplementation].map(([address, name]) => ({
      address: address as Address,
      name,
      role: 'implementation' as const,
    })),
  ]
}

const kernelFactoryAbi = parseAbi([
  'function deployWithFactory(address factory, bytes createData, bytes32 salt)',
  'function createAccount(address implementation, bytes data, uint256 index)',
])

/**
 * The account type an operation deploys, by its factory (null for an unknown factory). Kernel's factories name
 * the version in their call: v3's meta factory the factory, v2's factory the implementation.
 */
export function nameAccountByFactory(factory: Address, factoryData: Hex): string | null {
  const { byFactory, byImplementation } = getAccountNames()
  const name = byFactory.get(factory.toLowerCase()) ?? null
  if (name !== 'Kernel v3' && name !== 'Kernel v2') return name
  try {
    const { args } = decodeFunctionData({ abi: kernelFactoryAbi, data: factoryData })
    const named = args[0].toLowerCase()
    return (name === 'Kernel v3' ? byFactory.get(named) : byImplementation.get(named)) ?? name
  } catch {
    return name
  }
}

/**
 * The account type an operation deploys, read from its wire form: v0.6's initCode (factory ‖ factoryData) or
 * v0.7+'s factoryData, with the factory its EntryPoint module read (null: it deploys nothing, or an unknown type).
 */
export function nameAccountDeployedBy(wire: Record<string, unknown>, factory: Address | null): string | null {
  if (!factory) return null
  const initCode = typeof wire.initCode === 'string' ? wire.initCode : '0x'
  const factoryData = (initCode.length > 42 ? `0x${initCode.slice(42)}` : (wire.factoryData ?? '0x')) as Hex
  return nameAccountByFactory(factory, factoryData)
}

/** The account type of an EIP-7702 account, by the contract it delegates to. */
export function nameAccountByDelegate(delegate: Address): string | null {
  const name = getAccountNames().byImplementation.get(delegate.toLowerCase())
  return name ? `${name.replace(' (EIP-7702)', '')} (EIP-7702)` : null
}

const ERC1967_IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
const EIP1167 = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/

/**
 * The account type of a deployed account, by the implementation its code points to: an EIP-7702 delegation, an
 * EIP-1167 clone, an ERC-1967 proxy, a Safe proxy (singleton in slot 0) or a Biconomy v2 proxy (implementation in
 * the slot named by its own address). Null when none of those names a known implementation.
 */
export async function nameDeployedAccount(chain: Chain, sender: Address): Promise<string | null> {
  const code = (await chain.publicClient.getCode({ address: sender }))?.toLowerCase()
  if (!code || code === '0x') return null
  if (code.startsWith('0xef0100')) return nameAccountByDelegate(`0x${code.slice(8, 48)}`)
  const { byImplementation } = getAccountNames()
  const clone = EIP1167.exec(code)?.[1]
  if (clone) return byImplementation.get(`0x${clone}`) ?? null
  for (const slot of [ERC1967_IMPLEMENTATION_SLOT, '0x0', sender.toLowerCase()] as Hex[]) {
    const word = await chain.publicClient.getStorageAt({ address: sender, slot })
    const name = word && byImplementation.get(`0x${word.slice(-40)}`.toLowerCase())
    if (name) return name
  }
  return null
}
