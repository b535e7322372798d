/**
 * EntryPoint failure codes (AA10..AA98; v0.9's block-range AA27/AA37 and AA35) in plain words, with the likely fix. Used by the console
 * (Activity, Sandbox) and available to the service for richer error messages.
 */
export type AaErrorExplanation = {
  code: string
  /** The EntryPoint's own text. */
  title: string
  /** Who failed: the factory, the account, the paymaster, or the bundle itself. */
  entity: 'factory' | 'account' | 'paymaster' | 'bundle' | 'account or paymaster'
  /** What happened, in plain words. */
  meaning: string
  /** What usually fixes it. */
  fix: string
}

const table: AaErrorExplanation[] = [
  {
    code: 'AA10',
    title: 'sender already constructed',
    entity: 'factory',
    meaning:
      'The operation carries an initCode, but the account is already deployed (EntryPoint v0.9 ignores the initCode instead, logging IgnoredInitCode).',
    fix: 'Send initCode "0x" once the account exists (clients read eth_getCode(sender) to decide).',
  },
  {
    code: 'AA13',
    title: 'initCode failed or OOG',
    entity: 'factory',
    meaning: 'Calling the factory with the initCode reverted or ran out of gas.',
    fix: 'Check the factory address and its call data, and raise verificationGasLimit (deployment is expensive).',
  },
  {
    code: 'AA14',
    title: 'initCode must return sender',
    entity: 'factory',
    meaning: "The factory deployed an account at a different address than the operation's sender.",
    fix: 'Compute sender from the same factory, owner and index as the initCode (for SA v2: the canonical factory and ECDSA module).',
  },
  {
    code: 'AA15',
    title: 'initCode must create sender',
    entity: 'factory',
    meaning: 'The factory returned without putting code at the sender address.',
    fix: 'Use a factory that deploys the account (its create function must not just compute the address).',
  },
  {
    code: 'AA20',
    title: 'account not deployed',
    entity: 'account',
    meaning: 'The sender has no code and the operation has no initCode to deploy it.',
    fix: 'Add the initCode (factory address + deploy call) to the first operation of a new account.',
  },
  {
    code: 'AA21',
    title: "didn't pay prefund",
    entity: 'account',
    meaning:
      'No paymaster pays, so the account itself must pre-pay the maximum gas cost from its EntryPoint deposit or balance, and it cannot.',
    fix: 'Fund the account with ETH (Sandbox faucet), or get the operation sponsored: an empty paymasterAndData usually means the paymaster declined it (see the sponsorship decision).',
  },
  {
    code: 'AA22',
    title: 'expired or not due',
    entity: 'account',
    meaning:
      "The account's signature carries a validity window that does not include the current block time.",
    fix: 'Sign again with a window that covers now (validUntil in the future, validAfter in the past).',
  },
  {
    code: 'AA23',
    title: 'reverted (or OOG)',
    entity: 'account',
    meaning: "The account's validateUserOp reverted or ran out of gas.",
    fix: 'Read the revert reason; check the signature format (SA v2 wraps it as abi.encode(signature, module)) and raise verificationGasLimit.',
  },
  {
    code: 'AA24',
    title: 'signature error',
    entity: 'account',
    meaning: 'The account says the signature is not valid for this userOpHash.',
    fix: 'Sign the userOpHash of the final operation (after paymasterAndData and gas fields are set) with the owner key, for this chain id and EntryPoint.',
  },
  {
    code: 'AA25',
    title: 'invalid account nonce',
    entity: 'account',
    meaning: 'The nonce is not the next one the EntryPoint expects for this sender and key.',
    fix: 'Read EntryPoint.getNonce(sender, key) right before building; an operation with this nonce may already be pending or mined.',
  },
  {
    code: 'AA27',
    title: 'outside valid block range',
    entity: 'account',
    meaning:
      "The account's validity window is in block numbers (EntryPoint v0.9: validAfter/validUntil with the high bit set) and the current block is outside it.",
    fix: 'Sign again with a window that includes the coming blocks (validUntil above the current block number), and send promptly.',
  },
  {
    code: 'AA30',
    title: 'paymaster not deployed',
    entity: 'paymaster',
    meaning: 'The address in paymasterAndData has no code.',
    fix: "Use the paymasterAndData returned by this service's paymaster URL, on the same chain.",
  },
  {
    code: 'AA31',
    title: 'paymaster deposit too low',
    entity: 'paymaster',
    meaning:
      "The paymaster's EntryPoint deposit (for the verifying paymaster: the dApp's gas tank) cannot cover this operation.",
    fix: "Deposit more ETH into the dApp's gas tank (Paymasters → the dApp → Gas tank).",
  },
  {
    code: 'AA32',
    title: 'paymaster expired or not due',
    entity: 'paymaster',
    meaning:
      "The paymaster's signature window (validUntil / validAfter) does not include the current block time.",
    fix: "Ask the paymaster again and send promptly, or use a longer expiryDuration; check the dApp's validity window policy.",
  },
  {
    code: 'AA33',
    title: 'reverted (or OOG)',
    entity: 'paymaster',
    meaning: "The paymaster's validatePaymasterUserOp reverted or ran out of gas.",
    fix: 'Do not change the operation after sponsoring (the paymaster signed its fields), and check the token balance and allowance in ERC20 mode.',
  },
  {
    code: 'AA34',
    title: 'signature error',
    entity: 'paymaster',
    meaning: "The paymaster's signature does not match the operation.",
    fix: 'Any change to sender, nonce, callData, gas limits or fees after pm_sponsorUserOperation invalidates it: sponsor the final operation again.',
  },
  {
    code: 'AA35',
    title: 'malformed paymaster data',
    entity: 'paymaster',
    meaning:
      'EntryPoint v0.9 could not read paymasterAndData: the paymaster signature length before its magic suffix reaches into the paymaster address or gas limits.',
    fix: 'Send paymasterSignature as its own field (the bundler packs it), or the paymasterAndData the paymaster returned, unchanged.',
  },
  {
    code: 'AA37',
    title: 'paymaster inval block range',
    entity: 'paymaster',
    meaning:
      "The paymaster's validity window is in block numbers (EntryPoint v0.9: the high bit set) and the current block is outside it.",
    fix: 'Ask the paymaster again for a window that includes the coming blocks, and send promptly.',
  },
  {
    code: 'AA40',
    title: 'over verificationGasLimit',
    entity: 'account or paymaster',
    meaning: 'Validation used more gas than verificationGasLimit allows.',
    fix: 'Estimate again (eth_estimateUserOperationGas) or raise verificationGasLimit.',
  },
  {
    code: 'AA41',
    title: 'too little verificationGas',
    entity: 'account or paymaster',
    meaning: "Not enough verification gas was left for the paymaster after the account's validation.",
    fix: 'Raise verificationGasLimit; estimate with the real paymasterAndData.',
  },
  {
    code: 'AA50',
    title: 'postOp reverted',
    entity: 'paymaster',
    meaning: "The paymaster's postOp reverted (in ERC20 mode usually the token transfer for the fee).",
    fix: 'Keep enough fee tokens and allowance for the token paymaster until the operation is mined.',
  },
  {
    code: 'AA51',
    title: 'prefund below actualGasCost',
    entity: 'paymaster',
    meaning: 'The operation cost more than was pre-paid.',
    fix: 'Estimate again with the final operation; raise the gas limits.',
  },
  {
    code: 'AA90',
    title: 'invalid beneficiary',
    entity: 'bundle',
    meaning: 'The bundler passed an invalid beneficiary to handleOps.',
    fix: 'A bundler configuration problem: restart the service; report it if it persists.',
  },
  {
    code: 'AA91',
    title: 'failed send to beneficiary',
    entity: 'bundle',
    meaning: "The EntryPoint could not pay the bundler's beneficiary.",
    fix: 'A bundler configuration problem: restart the service.',
  },
  {
    code: 'AA92',
    title: 'internal call only',
    entity: 'bundle',
    meaning: 'innerHandleOp was called from outside the EntryPoint.',
    fix: 'Call handleOps, never innerHandleOp.',
  },
  {
    code: 'AA93',
    title: 'invalid paymasterAndData',
    entity: 'paymaster',
    meaning: 'paymasterAndData is shorter than 20 bytes (not even an address).',
    fix: 'Send "0x" for no paymaster, or the full value the paymaster returned.',
  },
  {
    code: 'AA94',
    title: 'gas values overflow',
    entity: 'bundle',
    meaning: 'A gas limit or fee does not fit in 120 bits.',
    fix: 'Use realistic gas values (hex quantities, not wei amounts in the wrong field).',
  },
  {
    code: 'AA95',
    title: 'out of gas',
    entity: 'bundle',
    meaning: 'The bundle transaction ran out of gas.',
    fix: 'The bundler underestimated the bundle gas: send again; lower gas limits that are far above need.',
  },
  {
    code: 'AA98',
    title: 'invalid paymaster',
    entity: 'paymaster',
    meaning:
      'The paymaster address in paymasterAndData is not usable (EntryPoint v0.8; v0.9 reverts with InvalidPaymaster(address)).',
    fix: "Use the paymaster fields returned by this service's paymaster URL, on the same chain.",
  },
]

const byCode = new Map(table.map((e) => [e.code, e]))

export const AA_ERRORS: readonly AaErrorExplanation[] = table

/** Finds the first AAxx code in a message ("FailedOp(0, AA21 didn't pay prefund)") and explains it. */
export function explainAaError(message: string | null | undefined): AaErrorExplanation | undefined {
  if (!message) return undefined
  const match = /\bAA(\d{2})\b/.exec(message)
  return match ? byCode.get(`AA${match[1]}`) : undefined
}

export function getAaError(code: string): AaErrorExplanation | undefined {
  return byCode.get(code.toUpperCase())
}
