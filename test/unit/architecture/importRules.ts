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
  {
    from: `${service}/{bundler,paymaster,policy,webhook,sandbox,setup,gasTanks}/**`,
    except: `${service}/**/methods/**`,
    to: `${service}/{server,jsonrpc,dashboard,console,docs}/**`,
    why: 'The domain sits below the edges (HTTP, JSON-RPC envelope, REST and console routes, API documents); only the thin wire-method files (methods/) define themselves with the JSON-RPC layer',
    example: { from: `${service}/paymaster/createPaymaster.ts`, to: `${service}/console/gasTank.routes.ts` },
  },
  {
    from: `${service}/explain/**`,
    to: `${service}/{server,jsonrpc,dashboard,console,docs,bundler,paymaster,policy,webhook,sandbox,setup,gasTanks}/**`,
    why: 'explain/ (what an operation did, from its trace) sits below the bundler and the JSON-RPC layer, which serve it',
    example: { from: `${service}/explain/traceUserOperation.ts`, to: `${service}/bundler/createBundler.ts` },
  },
  {
    from: `${service}/{entryPoint,chain,store,schemas,errors,log,util}/**`,
    to: `${service}/{server,jsonrpc,dashboard,console,docs,bundler,paymaster,policy,webhook,sandbox,setup,gasTanks,explain}/**`,
    why: 'entryPoint/, chain/, store/ and the shared pieces (schemas, errors, log, util) sit below the domain and the edges',
    example: { from: `${service}/store/smartContracts.repo.ts`, to: `${service}/policy/checkWhitelist.ts` },
  },
  {
    from: `${service}/{chain,store,schemas,errors,log,util}/**`,
    to: `${service}/entryPoint/**`,
    why: 'chain/ and store/ sit below the EntryPoint seam, which uses them',
    example: {
      from: `${service}/chain/deploy/ensureStakesAndDeposits.ts`,
      to: `${service}/entryPoint/index.ts`,
    },
  },
  {
    from: `${service}/**`,
    to: 'src/main/{api,desktop,index.ts,cli.ts}/**',
    why: 'The service never imports its package entry (src/main/api/), the desktop shell or the entry points, which all import it',
    example: { from: `${service}/chain/types.ts`, to: 'src/main/api/types.ts' },
  },
  {
    from: 'src/shared/**',
    to: 'src/{main,renderer,preload}/**',
    why: 'src/shared/ is what main and renderer share: it imports neither',
    example: { from: 'src/shared/serviceInfo.ts', to: 'src/main/api/types.ts' },
  },
  {
    from: 'src/renderer/**',
    to: 'src/{main,preload}/**',
    why: 'The console is a client of the service over HTTP: it shares types through src/shared/, never the service code',
    example: { from: 'src/renderer/src/api/console.ts', to: 'src/main/service/store/schema.ts' },
  },
  {
    from: 'src/**',
    to: '{scripts,bench,test}/**',
    why: 'Scripts, benches and tests may import the app, never the other way round',
    example: { from: `${service}/createService.ts`, to: 'scripts/lib/writeApiDocs.ts' },
  },
]

/**
 * Imports that still break a rule. Empty since issue 28 part 1 put the paymaster's binding of each version in its
 * module; the test holds the list exact (a new violation fails it, and so does one that is gone but still listed),
 * so an entry is only ever added knowingly.
 */
export const knownViolations: readonly string[] = []
