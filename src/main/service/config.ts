import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { ChainSpecListSchema } from '../../shared/chainList'

export const APP_NAME = 'Opstation'
export const DEFAULT_PORT = 4337
export const DEFAULT_CHAIN_ID = 31337

export const ServiceConfigSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    /** 0 = any free port. */
    port: z.number().int().min(0).max(65535).default(DEFAULT_PORT),
    dataDir: z.string().min(1),
    /** Use this node instead of the embedded anvil. */
    rpcUrl: z.string().url().optional(),
    /**
     * Chain id of the embedded anvil: default DEFAULT_CHAIN_ID, on a fork the forked chain's (an external node's id is
     * read from the node).
     */
    chainId: z.number().int().positive().optional(),
    /** Run the embedded anvil as a fork of the chain at this JSON-RPC URL (`chain/fork.json` pins it). */
    forkUrl: z.string().url().optional(),
    /** Block to fork at (default: the remote's head at the data folder's first start). */
    forkBlock: z.number().int().min(0).optional(),
    /** Embedded anvil block time in seconds; unset = mine on every transaction. */
    blockTime: z.number().positive().optional(),
    anvilPath: z.string().optional(),
    /**
     * Several chains at once (chain/chainSpecs.ts), the first one first: each an embedded anvil, a fork or an external
     * node. Instead of `chainId`, `forkUrl`, `forkBlock` and `rpcUrl`, which describe one chain.
     */
    chains: ChainSpecListSchema.optional(),
    /** Start without any chain: dashboard API only. */
    noChain: z.boolean().default(false),
    /** Skip ERC-7562 validation rules in the bundler. */
    unsafe: z.boolean().default(false),
    bundlingMode: z.enum(['auto', 'interval', 'manual']).default('auto'),
    /**
     * Seconds of unstake delay a stake needs to count as staked for ERC-7562 (MIN_UNSTAKE_DELAY; default one day, as
     * mainnet bundlers require; a local chain may lower it).
     */
    minUnstakeDelay: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .default(86_400),
    /** Wei a stake needs to count as staked for ERC-7562 (MIN_STAKE_VALUE, set per chain). */
    minStake: z.bigint().min(0n).default(1n),
    /** Pending UserOperations an unstaked sender may have (ERC-7562 UREP-010: 4). */
    maxPendingPerUnstakedSender: z.number().int().min(1).max(1024).default(4),
    webhookTimeoutMs: z.number().int().positive().default(3000),
    /** Folder holding the built console (index.html); default: out/renderer of the package. */
    consoleDir: z.string().optional(),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
    /**
     * When the store file is unreadable: keep it aside (`opstation.json.corrupt-<time>`) and start with an empty
     * store. Without it such a file stops the start. A readable store is never touched.
     */
    resetStore: z.boolean().default(false),
    /**
     * A setup applied once the service is up, before it reports ready: a path to a setup file (JSON, relative to the
     * working folder) or the setup object itself (setup/setupFileSchema.ts).
     */
    setup: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
    /** Largest accepted request body, bytes. */
    bodyLimit: z
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
  })
  .superRefine((config, ctx) => {
    if (!config.chains) return
    const single = (['chainId', 'forkUrl', 'forkBlock', 'rpcUrl'] as const).filter(
      (k) => config[k] !== undefined,
    )
    if (config.noChain) single.push('noChain' as never)
    if (single.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['chains'],
        message: `chains lists every chain: it cannot go with ${single.join(', ')}`,
      })
    }
  })
export type ServiceConfig = z.output<typeof ServiceConfigSchema>
export type ServiceConfigInput = z.input<typeof ServiceConfigSchema>

/** The OS application-data folder for Opstation (the same folder Electron's `userData` uses). */
export function defaultDataDir(platform = process.platform, env = process.env, home = os.homedir()): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_NAME)
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_NAME)
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), APP_NAME)
}

export function parseServiceConfig(input: ServiceConfigInput): ServiceConfig {
  return ServiceConfigSchema.parse(input)
}
