import { type Address, getAddress, type Hex } from 'viem'
import { recoverAuthorizationAddress } from 'viem/utils'
import type { Chain } from '../chain/types'
import type { UserOperationBase } from '../entryPoint/types'
import type { AuthorizationCheck } from './types'

/** An operation's `eip7702Auth` as the packed versions parse it (v0.7+; v0.6 operations have none). */
type Eip7702Auth = { chainId: bigint; address: Address; nonce: bigint; yParity: number; r: Hex; s: Hex }

const DELEGATION_PREFIX = '0xef0100'

/** The address an EIP-7702 account delegates to (its code is the designator `0xef0100 ‖ address`), else null. */
function delegateOf(code: Hex | undefined): Address | null {
  const lower = (code ?? '0x').toLowerCase()
  return lower.startsWith(DELEGATION_PREFIX) && lower.length === 48 ? getAddress(`0x${lower.slice(8)}`) : null
}

export type CheckAuthorizationParameters = {
  chain: Chain
  userOperation: UserOperationBase
  /** The sender's state before: the block before the bundle's, or now for a simulation. */
  beforeBlock: bigint | 'latest'
}

/**
 * Whether an operation's EIP-7702 authorization took effect (mined: the sender delegates to its address after the
 * bundle) or would (simulated), and if not why, as the chain judges one: its signer must be the sender, its chain id
 * this chain's or 0, its nonce the sender's; a sender that already delegates to the address needs none (the bundle
 * does not carry it), one that holds contract code cannot take one. Undefined for an operation without one.
 */
export async function checkAuthorization({
  chain,
  userOperation,
  beforeBlock,
}: CheckAuthorizationParameters): Promise<AuthorizationCheck | undefined> {
  const auth = (userOperation as { eip7702Auth?: Eip7702Auth | null }).eip7702Auth
  if (!auth) return undefined
  const sender = getAddress(userOperation.sender)
  const at = (block: bigint | 'latest') =>
    block === 'latest' ? { blockTag: 'latest' as const } : { blockNumber: block }
  const [signer, nonce, code] = await Promise.all([
    recoverAuthorizationAddress({
      authorization: { ...auth, chainId: Number(auth.chainId), nonce: Number(auth.nonce) },
    }).catch(() => null),
    chain.publicClient.getTransactionCount({ address: sender, ...at(beforeBlock) }),
    chain.publicClient.getCode({ address: sender, ...at(beforeBlock) }),
  ])
  const delegatedBefore = delegateOf(code)
  const reasons: string[] = []
  if (!signer) reasons.push('its signature does not recover a signer')
  else if (signer.toLowerCase() !== sender.toLowerCase())
    reasons.push(`it is signed by ${getAddress(signer)}, not by the sender ${sender}`)
  if (auth.chainId !== 0n && auth.chainId !== BigInt(chain.chainId))
    reasons.push(`it is for chain ${auth.chainId}, not this chain (${chain.chainId}) nor 0`)
  if (delegatedBefore?.toLowerCase() === auth.address.toLowerCase() && BigInt(nonce) !== auth.nonce)
    reasons.push(
      `the sender already delegates to ${getAddress(auth.address)}: none was needed, and it was not carried`,
    )
  else if (BigInt(nonce) !== auth.nonce)
    reasons.push(`it is for nonce ${auth.nonce}, the sender's nonce was ${nonce}`)
  if (code && code !== '0x' && !delegatedBefore)
    reasons.push('the sender holds contract code, not a delegation')
  let applied = reasons.length === 0
  if (beforeBlock !== 'latest' && applied) {
    const after = await chain.publicClient
      .getCode({ address: sender, blockNumber: beforeBlock + 1n })
      .catch(() => null)
    if (after === null) applied = false
    else if (delegateOf(after)?.toLowerCase() !== auth.address.toLowerCase()) {
      applied = false
      reasons.push(`the sender does not delegate to ${getAddress(auth.address)} after its bundle`)
    }
  }
  return {
    address: getAddress(auth.address),
    chainId: auth.chainId.toString(),
    nonce: auth.nonce.toString(),
    signer: signer ? getAddress(signer) : null,
    applied,
    reasons,
    delegatedBefore,
  }
}
