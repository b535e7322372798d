import { z } from 'zod'
import type { Covers } from '../../docs/routeDoc'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { UserOpHashSchema } from '../../schemas/hexSchemas'
import type { formatBiconomyReceipt, formatStandardReceipt } from '../receipts/formatUserOperationReceipt'
import type { GetBundler } from './bundlerAccess'

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/)

/** A log as the node returns it (quantities 0x-hex; a node may add fields, such as blockTimestamp). */
const RpcLogSchema = z.looseObject({
  address: hex,
  topics: z.array(hex),
  data: hex,
  blockNumber: hex,
  blockHash: hex,
  transactionHash: hex,
  transactionIndex: hex,
  logIndex: hex,
  removed: z.boolean().optional(),
})

/** A log in the Biconomy receipt: indexes as JSON numbers. */
const BiconomyLogSchema = z.object({
  transactionIndex: z.number().int(),
  blockNumber: z.number().int(),
  transactionHash: hex,
  address: hex,
  topics: z.array(hex),
  data: hex,
  logIndex: z.number().int(),
  blockHash: hex,
})

/** ethers v5 `BigNumber` as JSON. */
const EthersBigNumberSchema = z.object({ _hex: hex, _isBigNumber: z.literal(true) })

/** The receipt of spec section 2.4 (Biconomy's shape), for operations the Biconomy SDK v4 sent. */
export const BiconomyReceiptSchema = z
  .object({
    userOpHash: hex,
    entryPoint: hex,
    sender: hex,
    nonce: z.number(),
    success: z.string().meta({ description: '"true" or "false" (spec 2.4: the text form of a boolean)' }),
    paymaster: hex,
    actualGasCost: z.number(),
    actualGasUsed: z.number(),
    reason: z.string().meta({
      description:
        "Why the call phase failed (`postOp reverted: …` for the paymaster's postOp), decoded with the ABIs the service knows (`InsufficientBalance(5, 7)`), the raw revert data when none has the error; empty otherwise",
    }),
    logs: z.array(BiconomyLogSchema),
    receipt: z.object({
      to: hex.nullable(),
      from: hex,
      contractAddress: hex.nullable(),
      transactionIndex: z.number().int(),
      gasUsed: EthersBigNumberSchema,
      logsBloom: hex,
      blockHash: hex,
      transactionHash: hex,
      logs: z.array(BiconomyLogSchema),
      blockNumber: z.number().int(),
      confirmations: z.number().int(),
      cumulativeGasUsed: EthersBigNumberSchema,
      effectiveGasPrice: EthersBigNumberSchema,
      status: z.number().int(),
      type: z.number().int(),
      byzantium: z.boolean(),
    }),
  })
  .meta({ description: 'Spec section 2.4 (the Biconomy SDK v4 sent the operation)' })
type _CheckedBiconomy = Covers<typeof BiconomyReceiptSchema, ReturnType<typeof formatBiconomyReceipt>>

/** The ERC-4337 RPC receipt (what viem's getUserOperationReceipt parses). */
export const StandardReceiptSchema = z
  .object({
    userOpHash: hex,
    entryPoint: hex,
    sender: hex,
    nonce: hex,
    paymaster: hex,
    actualGasCost: hex,
    actualGasUsed: hex,
    success: z.boolean(),
    reason: z.string(),
    logs: z.array(RpcLogSchema).meta({ description: "The operation's logs" }),
    receipt: z
      .looseObject({
        transactionHash: hex,
        transactionIndex: hex,
        blockHash: hex,
        blockNumber: hex,
        from: hex,
        to: hex.nullable(),
        contractAddress: hex.nullable(),
        cumulativeGasUsed: hex,
        gasUsed: hex,
        effectiveGasPrice: hex,
        logs: z.array(RpcLogSchema),
        logsBloom: hex,
        status: hex,
        type: hex,
      })
      .meta({
        description: 'The bundle transaction receipt as the node returns it (with any field it adds)',
      }),
  })
  .meta({ description: 'ERC-4337 RPC (every other client)' })
type _CheckedStandard = Covers<typeof StandardReceiptSchema, ReturnType<typeof formatStandardReceipt>>

/**
 * `eth_getUserOperationReceipt(userOpHash)`: null (HTTP 200) while pending or unknown, the receipt as soon as it is
 * mined. Operations sent by the Biconomy SDK get spec section 2.4's shape; others the ERC-4337 RPC shape.
 */
export const ethGetUserOperationReceipt = (getBundler: GetBundler) =>
  defineMethod({
    name: 'eth_getUserOperationReceipt',
    summary: 'The receipt of a mined UserOperation; null while it is pending or unknown',
    params: z.tuple([UserOpHashSchema.meta({ title: 'userOpHash' })]),
    result: z.union([BiconomyReceiptSchema, StandardReceiptSchema]).nullable(),
    handler: ([userOpHash]) => getBundler().getUserOperationReceipt(userOpHash),
  })
