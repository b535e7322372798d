import { z } from 'zod'

/** What `PUT /console/api/setup` answers: what applying the setup file changed. */
export const ApplySetupResultSchema = z.object({
  changes: z
    .array(z.string())
    .meta({ description: 'One line per change made, in order; empty when nothing changed' }),
  warnings: z.array(z.string()).meta({
    description: 'What the setup asks that this node cannot do (lower a balance without dev methods)',
  }),
})
export type ApplySetupResult = z.output<typeof ApplySetupResultSchema>
