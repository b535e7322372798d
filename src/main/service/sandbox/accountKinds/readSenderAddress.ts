import { type Address, BaseError, ContractFunctionRevertedError, concat, type Hex } from 'viem'
import { entryPointAbi } from '../../chain/abis/entryPoint'
import type { Chain } from '../../chain/types'

/**
 * The account `factory.factoryData` creates, as the SDKs read it where the factory has no view of its own:
 * `EntryPoint.getSenderAddress(initCode)` runs the factory (in an eth_call) and reverts with
 * `SenderAddressResult(sender)`. The same function and error in EntryPoint v0.6 and v0.7.
 */
export async function readSenderAddress(
  chain: Chain,
  entryPoint: Address,
  factory: Address,
  factoryData: Hex,
): Promise<Address> {
  try {
    await chain.publicClient.simulateContract({
      address: entryPoint,
      abi: entryPointAbi,
      functionName: 'getSenderAddress',
      args: [concat([factory, factoryData])],
    })
  } catch (err) {
    const reverted =
      err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null
    const data = reverted instanceof ContractFunctionRevertedError ? reverted.data : undefined
    if (data?.errorName === 'SenderAddressResult') return data.args?.[0] as Address
    throw err
  }
  throw new Error('EntryPoint.getSenderAddress did not revert with SenderAddressResult')
}
