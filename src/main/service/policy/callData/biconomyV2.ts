import type { AccountFunction } from './accountFunction'
import { decodeBatchWithValues, decodeExecute } from './simpleAccount'

/**
 * Biconomy Smart Account v2's gas-golfed names (biconomy-protocol.md section 5); its plain execute and
 * executeBatch share SimpleAccount's selectors.
 */
export const BICONOMY_V2_FUNCTIONS: Record<string, AccountFunction> = {
  '0x0000189a': { name: 'execute_ncC(address,uint256,bytes)', decode: decodeExecute },
  '0x00004680': { name: 'executeBatch_y6U(address[],uint256[],bytes[])', decode: decodeBatchWithValues },
}
