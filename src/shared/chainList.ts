import { z } from 'zod'

/*
 * The chains a service runs, as every entry point names them: `opstation serve --chains`, `startOpstation({ chains })`,
 * a setup file's `chains` and the console's Settings (`chains`, saved in the store). Here, in src/shared, because the
 * console's Settings screen shows and edits the same list.
 */

/**
 * One chain a service runs: an embedded anvil (`{ chainId }`), an embedded anvil forking a remote chain
 * (`{ chainId, forkUrl }`) or an external node (`{ chainId, rpcUrl }`, whose own chain id must be `chainId`).
 */
export const ChainSpecSchema = z
  .object({
    chainId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    forkUrl: z.string().url().optional(),
    /** Block to fork at (default: the remote's head at the first start). */
    forkBlock: z.number().int().min(0).optional(),
    rpcUrl: z.string().url().optional(),
  })
  .strict()
  .refine((spec) => !(spec.forkUrl && spec.rpcUrl), {
    error: 'a chain is either a fork (forkUrl) or an external node (rpcUrl), not both',
  })
  .refine((spec) => spec.forkBlock === undefined || spec.forkUrl !== undefined, {
    error: 'forkBlock needs forkUrl',
  })
export type ChainSpec = z.output<typeof ChainSpecSchema>

/** Several chains, each chain id once. */
export const ChainSpecListSchema = z
  .array(ChainSpecSchema)
  .min(1, { error: 'chains must name at least one chain' })
  .superRefine((specs, ctx) => {
    const seen = new Set<number>()
    for (const spec of specs) {
      if (seen.has(spec.chainId))
        ctx.addIssue({ code: 'custom', message: `chain ${spec.chainId} is listed twice` })
      seen.add(spec.chainId)
    }
  })

export class InvalidChainListError extends Error {
  override name = 'InvalidChainListError'
}

/**
 * Reads the `--chains` value: entries separated by commas, each `<chainId>` (an embedded anvil),
 * `<chainId>=fork:<http(s) url>` (an embedded anvil forking that chain) or `<chainId>=rpc:<url>` (an external node).
 * Throws InvalidChainListError with a one-line message naming the entry.
 */
export function parseChainList(text: string): ChainSpec[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (entries.length === 0) throw new InvalidChainListError('--chains must name at least one chain id')
  const specs = entries.map(parseChainEntry)
  const seen = new Set<number>()
  for (const spec of specs) {
    if (seen.has(spec.chainId)) throw new InvalidChainListError(`--chains lists chain ${spec.chainId} twice`)
    seen.add(spec.chainId)
  }
  return specs
}

function parseChainEntry(entry: string): ChainSpec {
  const match = /^(\d+)(?:=(fork|rpc):(.+))?$/.exec(entry)
  const chainId = match ? Number(match[1]) : Number.NaN
  if (!match || !(chainId >= 1 && chainId <= Number.MAX_SAFE_INTEGER)) {
    throw new InvalidChainListError(
      `--chains entry "${entry}" must be <chainId>, <chainId>=fork:<url> or <chainId>=rpc:<url> (a chain id is a whole number from 1)`,
    )
  }
  const [, , kind, url] = match
  if (kind === undefined || url === undefined) return { chainId }
  if (kind === 'fork' && !/^https?:\/\/.+/.test(url)) {
    throw new InvalidChainListError(`--chains entry "${entry}": a fork URL must be an http(s) URL`)
  }
  if (kind === 'rpc' && !/^(https?|wss?):\/\/.+/.test(url)) {
    throw new InvalidChainListError(`--chains entry "${entry}": a node URL must be an http(s) or ws(s) URL`)
  }
  return kind === 'fork' ? { chainId, forkUrl: url } : { chainId, rpcUrl: url }
}

/**
 * The `--chains` text of a list (parseChainList's inverse, for a list that holds no `forkBlock`, which has no text
 * form): what the console's Settings screen shows in its field.
 */
export function formatChainList(specs: readonly ChainSpec[]): string {
  return specs
    .map((spec) =>
      spec.forkUrl
        ? `${spec.chainId}=fork:${spec.forkUrl}`
        : spec.rpcUrl
          ? `${spec.chainId}=rpc:${spec.rpcUrl}`
          : String(spec.chainId),
    )
    .join(',')
}
