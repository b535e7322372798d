import { z } from 'zod'

/** A snapshot of the whole stack the console took, under the name it was given. */
export const NamedSnapshotSchema = z.object({
  id: z.string().meta({ description: "The chain's snapshot id (evm_snapshot)" }),
  name: z.string(),
  chainTime: z.number().int().meta({ description: 'Chain time when it was taken (unix seconds)' }),
  takenAt: z.string().meta({ description: 'Wall time when it was taken (ISO)' }),
})
export type NamedSnapshot = z.output<typeof NamedSnapshotSchema>

/** What `GET /console/api/time` and the time actions answer. */
export const TimeViewSchema = z.object({
  chainTime: z
    .number()
    .int()
    .meta({ description: "The chain's now: the next block's timestamp (unix seconds)" }),
  wallTime: z.number().int().meta({ description: "The service's wall clock (unix seconds)" }),
  offsetSeconds: z.number().int().meta({ description: 'chainTime - wallTime' }),
  blockNumber: z.number().int().nonnegative(),
  snapshots: z
    .array(NamedSnapshotSchema)
    .meta({ description: 'Oldest first; a revert uses up its id and the later ones' }),
})
export type TimeView = z.output<typeof TimeViewSchema>

/** What a revert or a reset took back, counted in the store before and after. */
export const UndoneSchema = z.object({
  operations: z.number().int().nonnegative(),
  dapps: z.number().int().nonnegative(),
  sponsorships: z.number().int().nonnegative(),
})
export type Undone = z.output<typeof UndoneSchema>

export const TimeUndoViewSchema = TimeViewSchema.extend({ undone: UndoneSchema })
export type TimeUndoView = z.output<typeof TimeUndoViewSchema>

/** "3 operations, 1 dApp, 2 sponsorships undone", or "nothing undone". */
export function describeUndone(undone: Undone): string {
  const parts = [
    [undone.operations, 'operation', 'operations'],
    [undone.dapps, 'dApp', 'dApps'],
    [undone.sponsorships, 'sponsorship', 'sponsorships'],
  ] as const
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`)
  return said.length ? `${said.join(', ')} undone` : 'nothing undone'
}
