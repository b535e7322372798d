import type { Address, Hex } from 'viem'
import { UnsupportedCallError } from './accountFunction'
import { type InnerCall, toInnerCall } from './innerCall'

/** multiSend(bytes transactions). */
export const MULTI_SEND_SELECTOR = '0x8d80ff0a'

/**
 * Safe's MultiSend and MultiSendCallOnly at their published addresses (safe-deployments): the only contracts a
 * Safe may delegatecall for the decoder to read the calls, since the code at the address is what runs.
 */
const MULTI_SEND_DEPLOYMENTS = new Set([
  '0xa238cbeb142c10ef7ad8442c6d1f9e89e07e7761', // MultiSend v1.3.0
  '0x998739bfdaadde7c933b942a68053933098f9eda', // MultiSend v1.3.0 (EIP-155 deployment)
  '0x40a2accbd92bca938b02010e17a5b8929b49130d', // MultiSendCallOnly v1.3.0
  '0xa1dabef33b3b82c7814b6d82a79e50f4ac44102b', // MultiSendCallOnly v1.3.0 (EIP-155 deployment)
  '0x38869bf66a61cf6bdb996a6ae40d5853fd43b526', // MultiSend v1.4.1
  '0x9641d764fc13c8b624c04430c7356c1c7c8102e2', // MultiSendCallOnly v1.4.1
  '0x218543288004cd07832472d464648173c77d7eb7', // MultiSend v1.5.0
  '0xa83c336b20401af773b6219ba5027174338d1836', // MultiSendCallOnly v1.5.0
])

export const isMultiSendDeployment = (address: Address) => MULTI_SEND_DEPLOYMENTS.has(address.toLowerCase())

const ZERO_ADDRESS = `0x${'0'.repeat(40)}`
/** operation (1) + to (20) + value (32) + dataLength (32), in hex characters. */
const HEADER = 2 * (1 + 20 + 32 + 32)

/**
 * The packed transactions of multiSend(bytes): each is operation (uint8), to (address), value (uint256),
 * dataLength (uint256) and data, back to back. They must fill the bytes exactly. A delegatecall among them
 * (operation 1) is not decoded, nor is `to` = 0, which newer MultiSend versions turn into the Safe itself.
 */
export function decodeMultiSendTransactions(transactions: Hex): InnerCall[] {
  const calls: InnerCall[] = []
  const end = transactions.length
  for (let at = 2, index = 0; at < end; index++) {
    if (end - at < HEADER) {
      throw new Error(
        `MultiSend transaction ${index} is cut short: ${(end - at) / 2} bytes left, its header takes ${HEADER / 2}`,
      )
    }
    const operation = Number.parseInt(transactions.slice(at, at + 2), 16)
    const to = `0x${transactions.slice(at + 2, at + 42)}` as Address
    const value = BigInt(`0x${transactions.slice(at + 42, at + 106)}`)
    const dataLength = BigInt(`0x${transactions.slice(at + 106, at + HEADER)}`)
    const dataStart = at + HEADER
    const left = (end - dataStart) / 2
    if (dataLength > BigInt(left)) {
      throw new Error(`MultiSend transaction ${index} claims ${dataLength} bytes of data, ${left} are left`)
    }
    if (operation !== 0) {
      const what = operation === 1 ? 'a delegatecall (operation 1)' : `operation ${operation}`
      throw new UnsupportedCallError(
        `MultiSend transaction ${index} is ${what}; only calls (operation 0) are decoded`,
      )
    }
    if (to.toLowerCase() === ZERO_ADDRESS) {
      throw new UnsupportedCallError(
        `MultiSend transaction ${index} targets address 0, which newer MultiSend versions run as a call to the Safe itself`,
      )
    }
    at = dataStart + Number(dataLength) * 2
    calls.push(toInnerCall(to, value, `0x${transactions.slice(dataStart, at)}`))
  }
  return calls
}
