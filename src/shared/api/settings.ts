import { z } from 'zod'

/** Settings changed in the console; applied at start unless a command-line flag says otherwise. */
export const SettingsSchema = z.object({
  /** External node; null = embedded anvil. */
  rpcUrl: z.string().url().nullable().default(null),
  bundlingMode: z.enum(['auto', 'interval', 'manual']).default('auto'),
  unsafe: z.boolean().default(false),
  webhookTimeoutMs: z.number().int().positive().max(600_000).default(3000),
})
export type Settings = z.infer<typeof SettingsSchema>

/** What `GET|PATCH /console/api/settings` answer. */
export const SettingsViewSchema = z.object({
  saved: SettingsSchema.meta({
    description: 'What the console saved (applies at start unless a flag says otherwise)',
  }),
  effective: SettingsSchema.meta({
    description: 'What applies now; rpcUrl is the node in use (null: embedded anvil)',
  }),
  dataDir: z.string(),
  restartRequired: z.boolean().meta({ description: 'The saved rpcUrl differs from the node in use' }),
})
export type SettingsView = z.output<typeof SettingsViewSchema>
