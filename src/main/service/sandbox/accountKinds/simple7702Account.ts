import { type Address, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { simple7702AccountV08Artifact } from '../../chain/artifacts'
import type { Chain } from '../../chain/types'
import { delegationCode, entryPointV08, entryPointV09 } from '../../entryPoint'
import { readPackedOperation } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, toQuantity } from './shared'
import type { SandboxAccountKind } from './types'

const accountAbi = simple7702AccountV08Artifact.abi

/**
 * An EOA that delegates to a version's Simple7702Account (EIP-7702): the account is the owner's own address. Its
 * first operation carries the `0x7702` factory marker and an authorization the service signs with the held key; once
 * the bundle has set the delegation, operations carry neither. v0.8's and v0.9's accounts have the same calls (the
 * `execute` / `executeBatch` of BaseAccount) and sign the raw userOpHash; they differ in their EntryPoint.
 */
function defineSimple7702Account(
  type: 'SIMPLE_7702_V08' | 'SIMPLE_7702_V09',
  entryPoint: typeof entryPointV08 | typeof entryPointV09,
  delegateOf: (chain: Chain) => Address,
): SandboxAccountKind {
  return {
    type,
    entryPoint,
    getAddress: async (_chain, owner) => owner,
    async isDeployed(chain, account) {
      const code = await chain.publicClient.getCode({ address: account.address })
      return code?.toLowerCase() === delegationCode(delegateOf(chain)).toLowerCase()
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
          address: delegateOf(chain),
          chainId: chain.chainId,
          nonce: await chain.publicClient.getTransactionCount({
            address: owner.address,
            blockTag: 'pending',
          }),
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
      const { op, userOpHash } = readPackedOperation(chain, entryPoint, input)
      // Simple7702Account recovers the userOpHash itself (no EIP-191 prefix): the EOA signs the raw hash.
      const signature: Hex = await privateKeyToAccount(account.ownerPrivateKey).sign({ hash: userOpHash })
      return { userOperation: entryPoint.toWire({ ...op, signature }), userOpHash, signature }
    },
  }
}

export const simple7702V08 = defineSimple7702Account(
  'SIMPLE_7702_V08',
  entryPointV08,
  (chain) => chain.addresses.simple7702AccountV08,
)
export const simple7702V09 = defineSimple7702Account(
  'SIMPLE_7702_V09',
  entryPointV09,
  (chain) => chain.addresses.simple7702AccountV09,
)
