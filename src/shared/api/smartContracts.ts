import { z } from 'zod'
import { addressSchema, isoDateSchema } from './fields'

/** A dApp's contract as the store keeps it and as the dashboard API shows it. */
export const SmartContractSchema = z.object({
  id: z.string().min(1),
  dappId: z.string().min(1),
  name: z.string().min(1),
  /** Checksummed. */
  address: addressSchema,
  abi: z.string(),
  whitelistedMethods: z.array(z.string()),
  methods: z.array(z.string()),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
})
export type SmartContract = z.infer<typeof SmartContractSchema>

/** A contract as the dashboard API shows it (spec 2.10). */
export const SmartContractViewSchema = SmartContractSchema.pick({
  name: true,
  address: true,
  abi: true,
  whitelistedMethods: true,
  methods: true,
}).extend({
  address: SmartContractSchema.shape.address.meta({ description: 'Checksummed' }),
  methods: SmartContractSchema.shape.methods.meta({ description: 'Every state-changing method of the ABI' }),
})
export type SmartContractView = z.output<typeof SmartContractViewSchema>
