import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { type Settings, type SettingsView, SettingsViewSchema } from '../../../shared/api/settings'
import {
  type ChainSpec,
  ChainSpecListSchema,
  formatChainList,
  InvalidChainListError,
  parseChainList,
} from '../../../shared/chainList'
import { AUTH_TOKEN_REQUIRED, authenticate } from '../dashboard/auth'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { InvalidInputError } from '../errors'
import type { EventBus } from '../events'
import { jsonObject, parseInput } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'

export type SettingsRoutesOptions = {
  store: Store
  events: EventBus
  /** Live settings the bundler and paymaster read per request. */
  runtime: Pick<Settings, 'bundlingMode' | 'unsafe' | 'webhookTimeoutMs'>
  /** The node in use now (null = embedded anvil), to tell whether a saved rpcUrl needs a restart. */
  runningRpcUrl: string | null
  /** The list of chains in use now (null: the single-chain options), to tell whether saved chains need a restart. */
  runningChains: readonly ChainSpec[] | null
  dataDir: string
}

const PatchBody = jsonObject({
  rpcUrl: z
    .string({ error: 'rpcUrl must be a URL string or null' })
    .trim()
    .refine((v) => /^(https?|wss?):\/\/.+/.test(v), { error: 'rpcUrl must be an http(s) or ws(s) URL' })
    .nullable()
    .optional(),
  bundlingMode: z
    .enum(['auto', 'interval', 'manual'], { error: 'bundlingMode must be auto, interval or manual' })
    .optional(),
  unsafe: z.boolean({ error: 'unsafe must be a boolean value' }).optional(),
  webhookTimeoutMs: z
    .number({ error: 'webhookTimeoutMs must be a number' })
    .int({ error: 'webhookTimeoutMs must be a whole number of milliseconds' })
    .min(100, { error: 'webhookTimeoutMs must be at least 100' })
    .max(600_000, { error: 'webhookTimeoutMs must be at most 600000' })
    .optional(),
  chains: z
    .union([z.string(), ChainSpecListSchema], {
      error: 'chains must be the --chains text (e.g. "31337,31338"), a list of chains, or null',
    })
    .nullable()
    .optional(),
})

/**
 * The chains a PATCH saves: the `--chains` text (an empty one, like null, goes back to one chain) or a list. A text
 * that does not read answers 400 with parseChainList's message, which names the entry.
 */
function readSavedChains(chains: string | ChainSpec[] | null): ChainSpec[] | null {
  if (typeof chains !== 'string') return chains
  if (chains.trim() === '') return null
  try {
    return parseChainList(chains)
  } catch (err) {
    if (err instanceof InvalidChainListError)
      throw new InvalidInputError(err.message.replace(/^--chains/, 'chains'))
    throw err
  }
}

/** The same chains, as their `--chains` text (null for one chain). */
const chainsText = (chains: readonly ChainSpec[] | null) => (chains ? formatChainList(chains) : null)

/** What the two routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: settings',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
  data: SettingsViewSchema,
} as const satisfies Partial<RouteDoc>

/** `GET|PATCH /console/api/settings`: what the console's Settings screen shows and changes. */
export async function registerSettingsRoutes(
  app: FastifyInstance,
  options: SettingsRoutesOptions,
): Promise<void> {
  const { store, runtime } = options
  const view = (): SettingsView => ({
    saved: store.data.settings,
    effective: {
      ...runtime,
      rpcUrl: options.runningRpcUrl,
      chains: options.runningChains ? [...options.runningChains] : null,
    },
    dataDir: options.dataDir,
    /**
     * Saved chains or a saved node that differ from those in use take effect at the next start (saved chains name
     * every node, so the saved node stands aside).
     */
    restartRequired: store.data.settings.chains
      ? chainsText(store.data.settings.chains) !== chainsText(options.runningChains)
      : options.runningChains !== null || (store.data.settings.rpcUrl ?? null) !== options.runningRpcUrl,
  })

  app.get(
    '/console/api/settings',
    withDoc({ ...DOC, summary: 'The settings: saved, in effect, and whether a restart is needed' }),
    async (request, reply) => {
      authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })
      return sendOk(reply, 'Settings fetched', view())
    },
  )

  app.patch(
    '/console/api/settings',
    withDoc({
      ...DOC,
      summary:
        'Change settings: rpcUrl and chains (at the next start), bundlingMode, unsafe, webhookTimeoutMs (at once)',
      body: PatchBody,
    }),
    async (request, reply) => {
      authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED })
      const body = parseInput(PatchBody, request.body)
      const chains = body.chains === undefined ? undefined : readSavedChains(body.chains)
      await store.update((doc) => {
        if (body.rpcUrl !== undefined) doc.settings.rpcUrl = body.rpcUrl
        if (chains !== undefined) doc.settings.chains = chains
        if (body.bundlingMode !== undefined) doc.settings.bundlingMode = body.bundlingMode
        if (body.unsafe !== undefined) doc.settings.unsafe = body.unsafe
        if (body.webhookTimeoutMs !== undefined) doc.settings.webhookTimeoutMs = body.webhookTimeoutMs
      })
      if (body.bundlingMode !== undefined) runtime.bundlingMode = body.bundlingMode
      if (body.unsafe !== undefined) runtime.unsafe = body.unsafe
      if (body.webhookTimeoutMs !== undefined) runtime.webhookTimeoutMs = body.webhookTimeoutMs
      options.events.emit('settings.changed', { ...runtime })
      return sendOk(reply, 'Settings saved', view())
    },
  )
}
