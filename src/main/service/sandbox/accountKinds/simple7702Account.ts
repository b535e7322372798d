import { encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { simple7702AccountV08Artifact } from '../../chain/artifacts'
import { delegationCode, entryPointV08 } from '../../entryPoint'
import { readPackedOperation } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, toQuantity } from './shared'
import type { SandboxAccountKind } from './types'

const accountAbi = simple7702AccountV08Artifact.abi

/**
 * An EOA that delegates to v0.8's Simple7702Account (EIP-7702): the account is the owner's own address. Its first
 * operation carries the `0x7702` factory marker and an authorization the service signs with the held key; once
 * the bundle has set the delegation, operations carry neither.
 */
export const simple7702V08: SandboxAccountKind = {
  type: 'SIMPLE_7702_V08',
  entryPoint: entryPointV08,
  getAddress: async (_chain, owner) => owner,
  async isDeployed(chain, account) {
    const code = await chain.publicClient.getCode({ address: account.address })
    return code?.toLowerCase() === delegationCode(chain.addresses.simple7702AccountV08).toLowerCase()
  },
  /** BaseAccount's `execute` / `executeBatch(Call[])`. */
  encodeCalls(calls) {
    if (calls.length === 0) return '0x'
    if (calls.length === 1) {
      const [c] = calls as [(typeof calls)[number]]
      return encodeFunctionData({ abi: accountAbi, functionName: 'execute', args: [c.to, c.value, c.data] })
    }
    return encodeFunctionData({
      abi: accountAbi,
      functionName: 'executeBatch',
      args: [calls.map((c) => ({ target: c.to, value: c.value, data: c.data }))],
    })
  },
  async buildUserOperation(chain, account, parts) {
    let delegation = {}
    if (!parts.deployed) {
      const owner = privateKeyToAccount(account.ownerPrivateKey)
      const auth = await owner.signAuthorization({
        address: chain.addresses.simple7702AccountV08,
        chainId: chain.chainId,
        nonce: await chain.publicClient.getTransactionCount({ address: owner.address, blockTag: 'pending' }),
      })
      delegation = {
        factory: '0x7702',
        factoryData: '0x',
        eip7702Auth: {
          chainId: toQuantity(auth.chainId),
          address: auth.address,
          nonce: toQuantity(auth.nonce),
          yParity: toQuantity(auth.yParity ?? 0),
          r: auth.r,
          s: auth.s,
        },
      }
    }
    return draftOperation(account, parts, { ...delegation, signature: DUMMY_ECDSA_SIGNATURE })
  },
  async signUserOperation(chain, account, input) {
    const { op, userOpHash } = readPackedOperation(chain, entryPointV08, input)
    // Simple7702Account recovers the userOpHash itself (no EIP-191 prefix): the EOA signs the raw hash.
    const signature: Hex = await privateKeyToAccount(account.ownerPrivateKey).sign({ hash: userOpHash })
    return { userOperation: entryPointV08.toWire({ ...op, signature }), userOpHash, signature }
  },
}
