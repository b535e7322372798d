import { z } from 'zod'
import { ChainSpecListSchema } from '../chainList'

/** Settings changed in the console; applied at start unless a command-line flag says otherwise. */
export const SettingsSchema = z.object({
  /** External node; null = embedded anvil. */
  rpcUrl: z.string().url().nullable().default(null),
  bundlingMode: z.enum(['auto', 'interval', 'manual']).default('auto'),
  unsafe: z.boolean().default(false),
  webhookTimeoutMs: z.number().int().positive().max(600_000).default(3000),
  /**
   * Several chains at once, as `--chains` names them (each embedded, a fork or an external node); null: one chain,
   * the node of `rpcUrl` or the embedded anvil. Applies at the next start that names no chain of its own.
   */
  chains: ChainSpecListSchema.nullable().default(null),
})
export type Settings = z.infer<typeof SettingsSchema>

/** What `PATCH /console/api/settings` takes: any of the settings, the chains also as their `--chains` text. */
export type SettingsPatch = Partial<Omit<Settings, 'chains'>> & { chains?: Settings['chains'] | string }

/** What `GET|PATCH /console/api/settings` answer. */
export const SettingsViewSchema = z.object({
  saved: SettingsSchema.meta({
    description: 'What the console saved (applies at start unless a flag says otherwise)',
  }),
  effective: SettingsSchema.meta({
    description: 'What applies now; rpcUrl is the node in use (null: embedded anvil)',
  }),
  dataDir: z.string(),
  restartRequired: z
    .boolean()
    .meta({ description: 'The saved rpcUrl or chains differ from the node or chains in use' }),
})
export type SettingsView = z.output<typeof SettingsViewSchema>
