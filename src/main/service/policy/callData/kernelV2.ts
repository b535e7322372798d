import { decodeAbiParameters, type Hex, parseAbiParameters } from 'viem'
import { type AccountFunction, UnsupportedCallError } from './accountFunction'
import { type InnerCall, toInnerCall } from './innerCall'

const EXECUTE_PARAMS = parseAbiParameters('address, uint256, bytes, uint8')

/** Kernel v2's execute(to, value, data, operation): operation 0 is a call, 1 a delegatecall. */
const decodeKernelExecute = (args: Hex): InnerCall[] => {
  const [to, value, data, operation] = decodeAbiParameters(EXECUTE_PARAMS, args)
  if (operation === 1) {
    throw new UnsupportedCallError(
      'operation 1 is a delegatecall, which runs foreign code as the account; only calls (operation 0) are decoded',
    )
  }
  if (operation !== 0)
    throw new UnsupportedCallError(`operation ${operation} is neither a call (0) nor a delegatecall (1)`)
  return [toInnerCall(to, value, data)]
}

/** Kernel v2 (EntryPoint v0.6); its executeBatch(Call[]) shares SimpleAccount v0.8's selector. */
export const KERNEL_V2_FUNCTIONS: Record<string, AccountFunction> = {
  '0x51945447': { name: 'execute(address,uint256,bytes,uint8)', decode: decodeKernelExecute },
}
