import { concat, encodeAbiParameters, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ecdsaModuleAbi, smartAccountAbi, smartAccountFactoryAbi } from '../../chain/abis/smartAccount'
import type { Chain } from '../../chain/types'
import { entryPointV06 } from '../../entryPoint'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import { readOperationV06 } from './signOperationV06'
import type { SandboxAccountKind } from './types'

const setupOf = (owner: `0x${string}`) =>
  encodeFunctionData({ abi: ecdsaModuleAbi, functionName: 'initForSmartAccount', args: [owner] })
/** The ECDSA module's signature wrapping: abi.encode(signature, module). */
const wrap = (chain: Chain, signature: Hex) =>
  encodeAbiParameters([{ type: 'bytes' }, { type: 'address' }], [signature, chain.addresses.ecdsaModule])

/** Biconomy Smart Account v2 with the ECDSA module (EntryPoint v0.6), as the Biconomy SDK builds it. */
export const smartAccountV2: SandboxAccountKind = {
  type: 'SMART_ACCOUNT_V2',
  entryPoint: entryPointV06,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: chain.addresses.smartAccountFactory,
      abi: smartAccountFactoryAbi,
      functionName: 'getAddressForCounterFactualAccount',
      args: [chain.addresses.ecdsaModule, setupOf(owner), BigInt(index)],
    }),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  /** The SDK's selectors: `execute_ncC` / `executeBatch_y6U`. */
  encodeCalls(calls) {
    if (calls.length === 0) return '0x'
    if (calls.length === 1) {
      const [c] = calls as [(typeof calls)[number]]
      return encodeFunctionData({
        abi: smartAccountAbi,
        functionName: 'execute_ncC',
        args: [c.to, c.value, c.data],
      })
    }
    return encodeFunctionData({
      abi: smartAccountAbi,
      functionName: 'executeBatch_y6U',
      args: [calls.map((c) => c.to), calls.map((c) => c.value), calls.map((c) => c.data)],
    })
  },
  async buildUserOperation(chain, account, parts) {
    const initCode = parts.deployed
      ? '0x'
      : concat([
          chain.addresses.smartAccountFactory,
          encodeFunctionData({
            abi: smartAccountFactoryAbi,
            functionName: 'deployCounterFactualAccount',
            args: [chain.addresses.ecdsaModule, setupOf(account.owner), BigInt(account.index)],
          }),
        ])
    return draftOperation(account, parts, {
      initCode,
      paymasterAndData: '0x',
      signature: wrap(chain, DUMMY_ECDSA_SIGNATURE),
    })
  },
  async signUserOperation(chain, account, input) {
    const { wire, userOpHash } = readOperationV06(chain, input)
    const owner = privateKeyToAccount(account.ownerPrivateKey)
    const signature = wrap(chain, await owner.signMessage({ message: { raw: userOpHash } }))
    return { userOperation: { ...wire, signature }, userOpHash, signature }
  },
}
