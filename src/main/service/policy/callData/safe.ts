import { decodeAbiParameters, type Hex, parseAbiParameters, slice } from 'viem'
import { checksumAddress } from '../../chain/checksumAddress'
import { type AccountFunction, UnsupportedCallError } from './accountFunction'
import { type InnerCall, toInnerCall } from './innerCall'
import { decodeMultiSendTransactions, isMultiSendDeployment, MULTI_SEND_SELECTOR } from './multiSend'

const EXECUTE_USER_OP_PARAMS = parseAbiParameters('address, uint256, bytes, uint8')
const MULTI_SEND_PARAMS = parseAbiParameters('bytes')

/**
 * Safe4337Module's executeUserOp(to, value, data, operation) and executeUserOpWithErrorString (same
 * arguments). Operation 0 is one call. Operation 1 is a delegatecall: decoded only into a Safe MultiSend
 * deployment's multiSend(bytes), the way Safe clients batch; any other delegatecall could run anything as the
 * Safe.
 */
const decodeSafeExecuteUserOp = (args: Hex): InnerCall[] => {
  const [to, value, data, operation] = decodeAbiParameters(EXECUTE_USER_OP_PARAMS, args)
  if (operation === 0) return [toInnerCall(to, value, data)]
  if (operation !== 1)
    throw new UnsupportedCallError(`operation ${operation} is neither a call (0) nor a delegatecall (1)`)
  const selector = data.length >= 10 ? data.slice(0, 10).toLowerCase() : null
  if (selector !== MULTI_SEND_SELECTOR) {
    throw new UnsupportedCallError(
      `delegatecall (operation 1) to ${checksumAddress(to)} with ${selector ? `selector ${selector}` : 'no selector'}; only a MultiSend multiSend(bytes) batch is decoded`,
    )
  }
  if (!isMultiSendDeployment(to)) {
    throw new UnsupportedCallError(
      `delegatecall (operation 1) of multiSend(bytes) to ${checksumAddress(to)}, which is not a Safe MultiSend deployment (v1.3.0, v1.4.1, v1.5.0)`,
    )
  }
  const [transactions] = decodeAbiParameters(MULTI_SEND_PARAMS, slice(data, 4))
  return decodeMultiSendTransactions(transactions)
}

/** Safe with the Safe4337Module (EntryPoint v0.6 module 0.2.0, v0.7 module 0.3.0). */
export const SAFE_FUNCTIONS: Record<string, AccountFunction> = {
  '0x7bb37428': { name: 'executeUserOp(address,uint256,bytes,uint8)', decode: decodeSafeExecuteUserOp },
  '0x541d63c8': {
    name: 'executeUserOpWithErrorString(address,uint256,bytes,uint8)',
    decode: decodeSafeExecuteUserOp,
  },
}
