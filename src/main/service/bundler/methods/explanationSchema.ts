import { z } from 'zod'

const decimal = z.string().meta({ description: 'Decimal' })
const address = z.string().meta({ description: '0x-address' })
const hex = z.string().meta({ description: '0x-hex' })

const DecodedReasonSchema = z
  .object({
    kind: z.enum(['error-string', 'panic', 'custom-error', 'empty', 'out-of-gas', 'unknown']),
    text: z.string().meta({
      description: 'One line: `InsufficientBalance(5, 7)`, `Panic(0x11): arithmetic overflow or underflow`',
    }),
    name: z.string().optional(),
    args: z.array(z.unknown()).optional().meta({ description: 'Numbers as decimal strings' }),
    data: hex.meta({ description: 'The revert data' }),
  })
  .meta({ title: 'DecodedReason' })

/**
 * One call of the tree. Its `calls` are documented as objects of this same shape (the API documents hold no
 * recursive references).
 */
const CallSchema = z
  .object({
    type: z.string(),
    from: address,
    to: address.nullable(),
    contract: z
      .string()
      .nullable()
      .meta({ description: 'Its name where known; null for an unknown contract' }),
    function: z.string().nullable().meta({ description: 'The signature where decoded; null: see `input`' }),
    args: z.array(z.unknown()).optional(),
    input: hex.optional().meta({ description: 'The raw calldata of a call that is not decoded' }),
    value: decimal,
    gas: decimal,
    gasUsed: decimal,
    error: z
      .string()
      .nullable()
      .meta({ description: "The node's error (`execution reverted`, `out of gas`)" }),
    reason: DecodedReasonSchema.optional(),
    calls: z
      .array(z.record(z.string(), z.unknown()))
      .meta({ description: 'The calls it made, each an ExplainedCall' }),
  })
  .meta({ title: 'ExplainedCall' })

const PhaseSchema = z.object({
  name: z.enum(['deployment', 'account-validation', 'paymaster-validation', 'execution', 'postOp']),
  gasUsed: decimal,
  gasLimit: decimal,
  limitField: z.string().meta({ description: "The operation's field that bounds the phase" }),
  headroomPercent: z.number(),
  outcome: z.enum(['ok', 'reverted', 'out of gas']),
  error: z
    .object({
      address: address.nullable(),
      contract: z.string().nullable(),
      function: z.string().nullable(),
      reason: z.string(),
      revert: DecodedReasonSchema,
      raise: z.string().optional().meta({ description: 'Out of gas: the field to raise' }),
    })
    .optional()
    .meta({ description: 'The frame the failure started in, and why' }),
  signature: z.enum(['valid', 'invalid', 'missing']).optional().meta({
    description:
      'Account and paymaster validation: the signature verdict of its validationData (`missing`: simulated without one)',
  }),
  aggregator: address.optional().meta({ description: 'The signature aggregator the account named' }),
  validity: z
    .object({
      unit: z.enum(['timestamp', 'block']).meta({ description: '`block`: a v0.9 block-number window' }),
      validAfter: decimal,
      validUntil: decimal.nullable().meta({ description: 'Null: no expiry' }),
      checkedAt: decimal
        .nullable()
        .meta({ description: "The bundle block's timestamp or number (the latest block for a simulation)" }),
      state: z.enum(['valid', 'not yet valid', 'expired']).nullable(),
    })
    .optional()
    .meta({ description: 'Account and paymaster validation: the window its validationData gave' }),
})

const GasAccountSchema = z
  .object({
    limits: z
      .record(z.string(), decimal)
      .meta({ description: 'Every gas limit the operation carried, by field' }),
    limitTotal: decimal,
    actualGasUsed: decimal
      .nullable()
      .meta({ description: 'From the UserOperationEvent; null when it was not reached' }),
    actualGasCost: decimal.nullable(),
    usedPercent: z.number().nullable().meta({ description: 'actualGasUsed against limitTotal, in percent' }),
    preVerificationGas: z.object({
      carried: decimal,
      calculated: decimal.meta({ description: "What the service's calculator asks of the operation" }),
      calculator: z.string().meta({ description: '`calldata and overheads` or `EIP-7623`' }),
      parts: z
        .array(z.object({ name: z.string(), gas: z.number() }))
        .meta({ description: 'The parts of `calculated` (they add up to it before its rounding up)' }),
    }),
  })
  .meta({ title: 'GasAccount' })

/** The answer of opstation_traceUserOperation and opstation_simulateUserOperation (explain/types.ts). */
export const ExplanationSchema = z
  .object({
    userOpHash: hex,
    entryPoint: address,
    status: z.enum(['mined', 'reverted', 'rejected', 'dropped', 'pending', 'would-succeed', 'would-revert']),
    reason: z.string().nullable().meta({ description: 'Why it failed or was rejected, in one line' }),
    transactionHash: hex.nullable(),
    blockNumber: decimal.nullable(),
    phases: z.array(PhaseSchema),
    calls: CallSchema.nullable().meta({
      description: 'The handleOps call tree, decoded where the ABI is known',
    }),
    events: z.array(
      z.object({
        address,
        contract: z.string().nullable(),
        name: z.string().nullable().meta({ description: 'Null: no known ABI has it (see topics and data)' }),
        args: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
        topics: z.array(hex).optional(),
        data: hex.optional(),
      }),
    ),
    balanceChanges: z.array(
      z.object({
        address,
        contract: z.string().nullable(),
        asset: z.string().meta({ description: '`ETH` or the token address' }),
        symbol: z.string().optional(),
        before: decimal.nullable(),
        after: decimal.nullable(),
        delta: decimal,
      }),
    ),
    gas: GasAccountSchema.nullable().meta({
      description:
        'Estimates against use: the limits carried, the gas used, the preVerificationGas in its parts',
    }),
    authorization: z
      .object({
        address: address.meta({ description: 'The address it delegates the sender to' }),
        chainId: decimal,
        nonce: decimal,
        signer: address
          .nullable()
          .meta({ description: 'Recovered from its signature; null when it does not recover' }),
        applied: z.boolean().nullable().meta({
          description:
            'Mined: the sender delegates to `address` after its bundle; simulated: it would be applied now; null: not known',
        }),
        reasons: z.array(z.string()).meta({
          description:
            'Why it was not (or would not be) applied: its signer, chain id, nonce, or a delegation already in place',
        }),
        delegatedBefore: address
          .nullable()
          .meta({ description: 'Where the sender delegated before; null: nowhere' }),
      })
      .optional()
      .meta({
        title: 'AuthorizationCheck',
        description: 'EIP-7702 (v0.7+): absent for an operation without eip7702Auth',
      }),
    notes: z.array(z.string()).meta({ description: 'What this answer cannot show, and why' }),
  })
  .meta({ title: 'Explanation' })
