import { type Hex, size } from 'viem'
import { type AccountFunction, UnsupportedCallError } from './callData/accountFunction'
import { BICONOMY_V2_FUNCTIONS } from './callData/biconomyV2'
import { ERC7579_FUNCTIONS } from './callData/erc7579'
import type { InnerCall } from './callData/innerCall'
import { KERNEL_V2_FUNCTIONS } from './callData/kernelV2'
import { SAFE_FUNCTIONS } from './callData/safe'
import { SIMPLE_ACCOUNT_FUNCTIONS } from './callData/simpleAccount'

export type { InnerCall } from './callData/innerCall'

export type DecodedCallData =
  /** An account execute function with its inner calls. */
  | { kind: 'calls'; accountFunction: string; calls: InnerCall[] }
  /** Empty callData with an initCode: the op only deploys the account. */
  | { kind: 'deployOnly' }
  /** Empty callData on an existing account. */
  | { kind: 'empty' }
  /** A selector the decoder does not know, or arguments that do not decode. */
  | { kind: 'unknown'; selector: Hex | null; reason: string }

/**
 * IAccountExecute's executeUserOp(PackedUserOperation, bytes32): EntryPoint v0.7+ passes the whole operation
 * when callData starts with this selector, and Kernel v3 and Nexus then call themselves with callData[4:]. So
 * the rest of the callData is decoded as the account's own callData (one level; no wrapper in a wrapper).
 */
const EXECUTE_USER_OP_SELECTOR = '0x8dd7712f'
const executeUserOp: AccountFunction = {
  name: 'executeUserOp((address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes),bytes32)',
  decode: (args) => {
    if (size(args) === 0) throw new UnsupportedCallError('it wraps empty callData, so there is no call')
    const inner = decodeAccountCall(args, false)
    if (inner.kind === 'calls') return inner.calls
    throw new UnsupportedCallError(`the callData it wraps does not decode: ${inner.reason}`)
  },
}

/**
 * Account execute functions by selector (one file per account family in ./callData): SimpleAccount v0.6–v0.8,
 * Simple7702Account, LightAccount, Coinbase Smart Wallet, Biconomy Smart Account v2, Kernel v2, ERC-7579
 * accounts (Nexus, Kernel v3, Safe7579), Safe with the Safe4337Module, and the executeUserOp wrapper.
 */
export const ACCOUNT_FUNCTIONS: Record<string, AccountFunction> = {
  ...SIMPLE_ACCOUNT_FUNCTIONS,
  ...BICONOMY_V2_FUNCTIONS,
  ...KERNEL_V2_FUNCTIONS,
  ...ERC7579_FUNCTIONS,
  ...SAFE_FUNCTIONS,
  [EXECUTE_USER_OP_SELECTOR]: executeUserOp,
}

/** Decodes an account's callData into the calls it will make. Never throws. */
export function decodeCallData(callData: Hex, initCode: Hex = '0x'): DecodedCallData {
  if (size(callData) === 0) return size(initCode) > 0 ? { kind: 'deployOnly' } : { kind: 'empty' }
  return decodeAccountCall(callData, true)
}

function decodeAccountCall(
  callData: Hex,
  allowExecuteUserOp: boolean,
): Extract<DecodedCallData, { kind: 'calls' | 'unknown' }> {
  if (size(callData) < 4)
    return { kind: 'unknown', selector: null, reason: 'callData is shorter than a selector' }
  const selector = callData.slice(0, 10).toLowerCase() as Hex
  const fn = ACCOUNT_FUNCTIONS[selector]
  if (!fn || (!allowExecuteUserOp && fn === executeUserOp)) {
    return {
      kind: 'unknown',
      selector,
      reason: fn
        ? 'executeUserOp inside executeUserOp is not decoded'
        : `selector ${selector} is not an account execute function this paymaster decodes`,
    }
  }
  try {
    return { kind: 'calls', accountFunction: fn.name, calls: fn.decode(`0x${callData.slice(10)}`) }
  } catch (err) {
    if (err instanceof UnsupportedCallError)
      return { kind: 'unknown', selector, reason: `${fn.name}: ${err.message}` }
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err)
    return { kind: 'unknown', selector, reason: `${fn.name} arguments do not decode (${why})` }
  }
}
