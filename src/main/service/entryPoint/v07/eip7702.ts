import { type Address, type Hex, hexToBigInt, type SignedAuthorization } from 'viem'
import { recoverAuthorizationAddress } from 'viem/utils'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain } from '../../chain/types'
import { invalidFields, userOperationRejected } from '../errors'
import type { BundleTransaction } from '../types'
import { EIP7702_FACTORY_MARKER, type Eip7702Auth, type UserOperationV07 } from './userOperation'

/** The code an EIP-7702 account holds while it delegates to `delegate` (the delegation designator). */
export function delegationCode(delegate: Address): Hex {
  return `0xef0100${delegate.slice(2).toLowerCase()}`
}

/** The authorization in viem's form (the type-4 transaction's authorization list takes these). */
export function toSignedAuthorization(auth: Eip7702Auth): SignedAuthorization {
  return {
    address: auth.address,
    chainId: Number(auth.chainId),
    nonce: Number(auth.nonce),
    r: auth.r,
    s: auth.s,
    yParity: auth.yParity,
  }
}

type AccountState = { nonce: bigint; code: Hex }

async function readAccountState(chain: Chain, account: Address): Promise<AccountState> {
  const [nonce, code] = await Promise.all([
    requestRpc<Hex>(chain.publicClient, 'eth_getTransactionCount', [account, 'latest']),
    requestRpc<Hex>(chain.publicClient, 'eth_getCode', [account, 'latest']),
  ])
  return { nonce: hexToBigInt(nonce), code: (code ?? '0x').toLowerCase() as Hex }
}

/**
 * Whether the authorization still does what it says: `apply` when the account's nonce is the authorization's (it
 * goes into the bundle's transaction), `inPlace` when the account already delegates to that address (an earlier
 * bundle applied it: nothing to carry), otherwise the reason it no longer matches.
 */
function judge(auth: Eip7702Auth, state: AccountState): 'apply' | 'inPlace' | string {
  if (state.code === delegationCode(auth.address)) return state.nonce === auth.nonce ? 'apply' : 'inPlace'
  if (state.nonce !== auth.nonce)
    return `EIP-7702 authorization no longer matches: it is for account nonce ${auth.nonce}, the account's nonce is ${state.nonce}`
  if (state.code !== '0x' && !state.code.startsWith('0xef0100'))
    return 'EIP-7702 authorization for an account that holds contract code'
  return 'apply'
}

/**
 * eth_sendUserOperation's checks of an EIP-7702 authorization, as eth-infinitism's reference bundler makes them: for
 * this chain (or any chain, id 0) and signed by the sender itself, else -32602 ("chainId", "sender"); delegating to
 * an address with code; for the account's current nonce (or already in place). An authorization for another nonce of
 * an account without code would not apply: its account is not deployed (AA20, -32500, what the EntryPoint answers
 * the reference bundler's simulation).
 */
export async function checkEip7702Authorization(chain: Chain, op: UserOperationV07): Promise<void> {
  const auth = op.eip7702Auth
  if (!auth) return
  if (auth.chainId !== 0n && auth.chainId !== BigInt(chain.chainId))
    throw invalidFields(`eip7702Auth.chainId ${auth.chainId} is not this chain's (${chain.chainId}) nor 0`)
  let authority: Address
  try {
    authority = await recoverAuthorizationAddress({ authorization: toSignedAuthorization(auth) })
  } catch (err) {
    throw invalidFields(`eip7702Auth signature does not recover: ${(err as Error).message.split('\n')[0]}`)
  }
  if (authority.toLowerCase() !== op.sender.toLowerCase())
    throw invalidFields(`eip7702Auth: the authorization signer ${authority} is not the sender ${op.sender}`)
  const [state, delegateCode] = await Promise.all([
    readAccountState(chain, op.sender),
    requestRpc<Hex>(chain.publicClient, 'eth_getCode', [auth.address, 'latest']),
  ])
  if (!delegateCode || delegateCode === '0x')
    throw invalidFields(`eip7702Auth delegates to ${auth.address}, which has no code on this chain`)
  const verdict = judge(auth, state)
  if (verdict === 'apply' || verdict === 'inPlace') return
  if (state.code === '0x') throw userOperationRejected(`AA20 account not deployed: ${verdict}`)
  throw invalidFields(verdict)
}

export type Eip7702BundlePlan = {
  /** Authorizations the bundle transaction carries (type 4 when not empty). */
  authorizationList: SignedAuthorization[]
  /** Operations whose authorization no longer matches, by index, with the reason. */
  invalid: { index: number; reason: string }[]
}

/** Before a bundle is sent: which authorizations it carries, and which operations can no longer go. */
export async function planEip7702Bundle(
  chain: Chain,
  ops: readonly UserOperationV07[],
): Promise<Eip7702BundlePlan> {
  const plan: Eip7702BundlePlan = { authorizationList: [], invalid: [] }
  const carried = new Set<string>()
  for (const [index, op] of ops.entries()) {
    const auth = op.eip7702Auth
    if (!auth) continue
    const verdict = judge(auth, await readAccountState(chain, op.sender))
    if (verdict === 'apply') {
      const key = `${op.sender.toLowerCase()}:${auth.nonce}`
      if (!carried.has(key)) plan.authorizationList.push(toSignedAuthorization(auth))
      carried.add(key)
    } else if (verdict !== 'inPlace') {
      plan.invalid.push({ index, reason: verdict })
    }
  }
  return plan
}

/**
 * Mined EIP-7702 operations read back from their bundle: each one's authorization from the transaction's list
 * (matched by its signer), else the delegation its account holds now, so that their v0.8 hash can be computed.
 */
export async function attachEip7702Delegations(
  chain: Chain,
  ops: UserOperationV07[],
  authorizationList: NonNullable<BundleTransaction['authorizationList']>,
): Promise<UserOperationV07[]> {
  const marked = ops.filter((op) => op.factory === EIP7702_FACTORY_MARKER)
  if (marked.length === 0) return ops
  const carried = await Promise.all(
    authorizationList.map(async (item) => {
      const auth: Eip7702Auth = {
        address: item.address,
        chainId: hexToBigInt(item.chainId),
        nonce: hexToBigInt(item.nonce),
        yParity: Number(hexToBigInt(item.yParity)),
        r: item.r,
        s: item.s,
      }
      const authority = await recoverAuthorizationAddress({
        authorization: toSignedAuthorization(auth),
      }).catch(() => null)
      return { authority: authority?.toLowerCase(), auth }
    }),
  )
  for (const op of marked) {
    const match = carried.find((c) => c.authority === op.sender.toLowerCase())
    if (match) {
      op.eip7702Auth = match.auth
      continue
    }
    const code = (await requestRpc<Hex>(chain.publicClient, 'eth_getCode', [op.sender, 'latest'])) ?? '0x'
    if (code.toLowerCase().startsWith('0xef0100')) op.eip7702Delegate = `0x${code.slice(8, 48)}` as Address
  }
  return ops
}
