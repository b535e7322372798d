import { z } from 'zod'
import { ENTRY_POINT_VERSIONS } from '../entryPointVersions'

/** The wire's field shapes, shared by the records the store keeps and the answers the API gives. */
export const isoDateSchema = z.string().min(1)
export const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
export const hashSchema = z.string().regex(/^0x[0-9a-fA-F]{64}$/)
export const hexSchema = z.string().regex(/^0x[0-9a-fA-F]*$/)
export const decimalSchema = z.string().regex(/^\d+$/)
export const EntryPointVersionSchema = z.enum(ENTRY_POINT_VERSIONS)
