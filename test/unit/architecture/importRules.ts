import type { ImportRule } from './importGraph'

const service = 'src/main/service'

/** An import rule with an import it must refuse (the rule checker is tested on it, so no row can match nothing). */
export type ImportRuleRow = ImportRule & { example: { from: string; to: string } }

/**
 * The layering the service keeps (ARCHITECTURE.md, "Layering" and decision 4). One row per rule: a file matching
 * `from` (and not `except`) never imports a file matching `to`. Add a row to add a rule.
 */
export const importRules: readonly ImportRuleRow[] = [
  {
    from: 'src/**',
    except: `${service}/entryPoint/**`,
    to: `${service}/entryPoint/v[0-9]*/**`,
    why: 'A version folder is reached only through its module (entryPoint/index.ts, entryPoint/types.ts): nothing outside entryPoint/ knows which versions exist or how they are written',
    example: {
      from: `${service}/bundler/createBundler.ts`,
      to: `${service}/entryPoint/v06/userOperation.ts`,
    },
  },
  {
    from: `${service}/entryPoint/**`,
    to: `${service}/{bundler,paymaster,jsonrpc}/**`,
    why: 'entryPoint/ sits below the bundler, the paymaster and the JSON-RPC layer, which all use it',
    example: { from: `${service}/entryPoint/v06/index.ts`, to: `${service}/bundler/mempool/mempool.ts` },
  },
]

/**
 * Imports that still break a rule. Empty since issue 28 part 1 put the paymaster's binding of each version in its
 * module; the test holds the list exact (a new violation fails it, and so does one that is gone but still listed),
 * so an entry is only ever added knowingly.
 */
export const knownViolations: readonly string[] = []
