import { type Address, encodeFunctionData, type Hex, parseAbi, toHex } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import type { Chain } from '../../chain/types'

const accountFactoryAbi = parseAbi([
  'function createAccount(address admin, bytes salt) returns (address)',
  'function getAddress(address adminSigner, bytes data) view returns (address)',
])

/** The factory's salt bytes: empty for index 0 (what the SDK sends when no salt is given), else the index. */
const saltOf = (index: number): Hex => (index === 0 ? '0x' : toHex(BigInt(index)))

/** thirdweb's account factory of an EntryPoint version (`thirdwebFactoryV06` / `thirdwebFactoryV07`). */
export function thirdwebFactory(name: 'thirdwebFactoryV06' | 'thirdwebFactoryV07') {
  return {
    /** The factory's own `getAddress(admin, salt)`, as permissionless' toThirdwebSmartAccount reads it. */
    getAddress: (chain: Chain, owner: Address, index: number): Promise<Address> =>
      chain.publicClient.readContract({
        address: getZooAddress(name),
        abi: accountFactoryAbi,
        functionName: 'getAddress',
        args: [owner, saltOf(index)],
      }),
    /** `createAccount(admin, salt)`: the owner is the account's admin. */
    deploymentOf: (owner: Address, index: number) => ({
      factory: getZooAddress(name),
      factoryData: encodeFunctionData({
        abi: accountFactoryAbi,
        functionName: 'createAccount',
        args: [owner, saltOf(index)],
      }),
    }),
  }
}
