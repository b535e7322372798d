import { type Address, type Hex, size, slice } from 'viem'
import { checksumAddress } from '../../chain/checksumAddress'

/** One call an account makes on behalf of the UserOperation. */
export type InnerCall = {
  to: Address
  value: bigint
  data: Hex
  /** First four bytes of `data`; null for a plain value transfer (empty data). */
  selector: Hex | null
}

export function toInnerCall(to: Address, value: bigint, data: Hex): InnerCall {
  return {
    to: checksumAddress(to),
    value,
    data,
    selector: size(data) >= 4 ? (slice(data, 0, 4).toLowerCase() as Hex) : null,
  }
}
