import { concat, encodeFunctionData } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { simpleAccountAbi, simpleAccountFactoryAbi } from '../../chain/abis/simpleAccount'
import { entryPointV06 } from '../../entryPoint'
import { InvalidInputError } from '../../errors'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import { readOperationV06 } from './signOperationV06'
import type { SandboxAccountKind } from './types'

/** SimpleAccount of EntryPoint v0.6 from its canonical factory. */
export const simpleAccountV06: SandboxAccountKind = {
  type: 'SIMPLE_ACCOUNT',
  entryPoint: entryPointV06,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: chain.addresses.simpleAccountFactory,
      abi: simpleAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, BigInt(index)],
    }),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  /** `execute` / `executeBatch(address[], bytes[])` (v0.6 batches carry no value). */
  encodeCalls(calls) {
    if (calls.length === 0) return '0x'
    if (calls.length === 1) {
      const [c] = calls as [(typeof calls)[number]]
      return encodeFunctionData({
        abi: simpleAccountAbi,
        functionName: 'execute',
        args: [c.to, c.value, c.data],
      })
    }
    if (calls.some((c) => c.value !== 0n))
      throw new InvalidInputError('SimpleAccount v0.6 batches cannot send ETH: send value in a single call')
    return encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'executeBatch',
      args: [calls.map((c) => c.to), calls.map((c) => c.data)],
    })
  },
  async buildUserOperation(chain, account, parts) {
    const initCode = parts.deployed
      ? '0x'
      : concat([
          chain.addresses.simpleAccountFactory,
          encodeFunctionData({
            abi: simpleAccountFactoryAbi,
            functionName: 'createAccount',
            args: [account.owner, BigInt(account.index)],
          }),
        ])
    return draftOperation(account, parts, {
      initCode,
      paymasterAndData: '0x',
      signature: DUMMY_ECDSA_SIGNATURE,
    })
  },
  async signUserOperation(chain, account, input) {
    const { wire, userOpHash } = readOperationV06(chain, input)
    const signature = await privateKeyToAccount(account.ownerPrivateKey).signMessage({
      message: { raw: userOpHash },
    })
    return { userOperation: { ...wire, signature }, userOpHash, signature }
  },
}
