import path from 'node:path'
import { parseArgs } from 'node:util'
import { InvalidChainListError, parseChainList } from '../shared/chainList'
import { DEFAULT_PORT, defaultDataDir, type ServiceConfigInput } from './service/config'
import { createService, type Service } from './service/createService'
import { AppError } from './service/errors'
import { InvalidSetupError } from './service/setup/InvalidSetupError'
import { readPackageVersion } from './service/util/packageRoot'

const USAGE = `Usage: opstation serve [options]

Runs the Opstation gas service headless: bundler, paymaster, dashboard API, chain and console.

Options:
  --host <host>            address to listen on (default 127.0.0.1)
  --port <port>            port to listen on (default ${DEFAULT_PORT}; 0 = any free port)
  --data-dir <dir>         data folder (default ${defaultDataDir()})
  --rpc-url <url>          use this node instead of the embedded anvil
  --chain-id <id>          chain id of the embedded anvil (default 31337; on a fork, the forked chain's)
  --fork-url <url>         run the embedded anvil as a fork of the chain at this http(s) URL: its contracts
                           are used as they are, the rest is deployed
  --fork-block <n>         block to fork at (default: the remote's head at the data folder's first start;
                           later starts fork the recorded block and URL, also without these flags)
  --chains <list>          run several chains at once, the first one first: comma-separated entries, each
                           <chainId> (an embedded anvil), <chainId>=fork:<url> (an embedded anvil forking
                           that chain) or <chainId>=rpc:<url> (an external node), mixed freely, e.g.
                           --chains 31337,31338  or  --chains 31337,8453=fork:https://mainnet.base.org
                           (instead of --chain-id, --fork-url, --fork-block and --rpc-url, which describe
                           one chain). Each chain has its own URLs: bundler /api/v2/<chainId>/<key>, paymaster
                           /api/v1/<chainId>/<apiKey>, chain RPC /rpc/<chainId> (the ready line's "chains")
  --block-time <seconds>   embedded anvil block time (default: mine on every transaction)
  --anvil-path <file>      anvil binary to use
  --no-chain               run without a chain (dashboard API only)
  --unsafe                 skip ERC-7562 validation rules in the bundler
  --bundling-mode <mode>   auto | interval | manual (default auto)
  --min-unstake-delay <s>  unstake delay, in seconds, a stake needs to count as staked for ERC-7562
                           (default 86400, one day, as on mainnet; the ERC-4337 test suite stakes with 2)
  --min-stake <wei>        stake, in wei, an entity needs to count as staked (default 1)
  --max-pending-per-sender <n>
                           pending UserOperations an unstaked sender may have (default 4, ERC-7562 UREP-010)
  --webhook-timeout <ms>   time-out for dApp webhooks (default 3000)
  --log-level <level>      fatal | error | warn | info | debug (default warn; logs go to stderr)
  --reset-store            if the store file is unreadable, keep it aside and start with an empty store
                           (without it, an unreadable store stops the start)
  --setup <file>           apply this setup file (dApps, contracts, webhooks, policies, gas tanks, token
                           prices, funded accounts) before reporting ready; applying it again changes nothing
  -h, --help               show this help
  -v, --version            show the version

Environment:
  OPSTATION_DATA_DIR       data folder (--data-dir wins)
  OPSTATION_RESET_STORE=1  same as --reset-store
  OPSTATION_FORK_URL       same as --fork-url (the flag wins)
  OPSTATION_FORK_BLOCK     same as --fork-block (the flag wins)
  OPSTATION_SETUP          same as --setup (the flag wins)
  OPSTATION_CONSOLE_DIR    folder of the built console served at /console/ (default: out/renderer of the package)

When ready it prints one line: "opstation ready " followed by a JSON object with the URLs (the first
chain's in bundlerUrl, paymasterUrlTemplate and rpcUrl; every chain's in "chains").`

export class UsageError extends Error {
  override name = 'UsageError'
}

const SERVE_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'rpc-url': { type: 'string' },
  'chain-id': { type: 'string' },
  'fork-url': { type: 'string' },
  'fork-block': { type: 'string' },
  chains: { type: 'string' },
  'block-time': { type: 'string' },
  'anvil-path': { type: 'string' },
  'no-chain': { type: 'boolean' },
  unsafe: { type: 'boolean' },
  'bundling-mode': { type: 'string' },
  'min-unstake-delay': { type: 'string' },
  'min-stake': { type: 'string' },
  'max-pending-per-sender': { type: 'string' },
  'webhook-timeout': { type: 'string' },
  'log-level': { type: 'string' },
  'reset-store': { type: 'boolean' },
  setup: { type: 'string' },
} as const

/**
 * `--port -5` as `--port=-5`: a value that starts with a dash would otherwise read as an option ("argument is
 * ambiguous"); written this way it reaches the option's own check and its message.
 */
function attachDashedValues(args: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const name = args[i]?.startsWith('--') ? args[i]?.slice(2) : undefined
    const next = args[i + 1]
    const option = name ? SERVE_OPTIONS[name as keyof typeof SERVE_OPTIONS] : undefined
    if (option?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${args[i]}=${next}`)
      i++
    } else out.push(args[i] as string)
  }
  return out
}

/**
 * Flags npm took for itself: `npm start --port 0` (without `--`) sets npm's own `port` config, and only what
 * remains reaches Opstation. Returns the first such flag, read from npm's environment.
 */
export function findFlagNpmTook(env = process.env): string | undefined {
  if (!env.npm_lifecycle_event) return undefined
  return Object.keys(SERVE_OPTIONS).find(
    (name) => env[`npm_config_${name.replaceAll('-', '_')}`] !== undefined,
  )
}

/** Turns argv (after the command) into a service config. Throws UsageError with a one-line message. */
export function parseServeArgs(args: string[], env = process.env): ServiceConfigInput {
  let values: ReturnType<typeof parse>['values']
  function parse() {
    return parseArgs({
      args: attachDashedValues(args),
      strict: true,
      allowPositionals: false,
      options: SERVE_OPTIONS,
    })
  }
  try {
    values = parse().values
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0] ?? 'invalid arguments')
  }
  const int = (name: string, value: string | undefined, min: number, max: number) => {
    if (value === undefined) return undefined
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${value}")`)
    }
    return Number(value)
  }
  const blockTime = values['block-time']
  if (blockTime !== undefined && !(Number(blockTime) > 0)) {
    throw new UsageError(`--block-time must be a positive number of seconds (got "${blockTime}")`)
  }
  const rpcUrl = values['rpc-url']
  if (rpcUrl !== undefined && !/^(https?|wss?):\/\/.+/.test(rpcUrl)) {
    throw new UsageError(`--rpc-url must be an http(s) or ws(s) URL (got "${rpcUrl}")`)
  }
  // With --chains each chain says whether it is a fork: the single-chain environment variables stand aside.
  const singleChainEnv = values.chains === undefined ? env : {}
  const forkUrl = values['fork-url'] ?? (singleChainEnv.OPSTATION_FORK_URL || undefined)
  if (forkUrl !== undefined && !/^https?:\/\/.+/.test(forkUrl)) {
    throw new UsageError(`--fork-url must be an http(s) URL (got "${forkUrl}")`)
  }
  const forkBlockText = values['fork-block'] ?? (singleChainEnv.OPSTATION_FORK_BLOCK || undefined)
  if (forkBlockText !== undefined && forkUrl === undefined) {
    throw new UsageError('--fork-block needs --fork-url')
  }
  if (forkUrl !== undefined && (rpcUrl !== undefined || values['no-chain'])) {
    throw new UsageError(
      `--fork-url runs the embedded anvil: it cannot go with ${rpcUrl ? '--rpc-url' : '--no-chain'}`,
    )
  }
  const chains = parseChainsFlag(values.chains)
  if (chains) {
    const single = (['chain-id', 'fork-url', 'fork-block', 'rpc-url', 'no-chain'] as const).find(
      (name) => values[name] !== undefined,
    )
    if (single) throw new UsageError(`--chains lists every chain: it cannot go with --${single}`)
  }
  const setup = values.setup ?? (env.OPSTATION_SETUP?.trim() || undefined)
  if (setup !== undefined && setup.trim() === '') throw new UsageError('--setup must name a setup file')
  const mode = values['bundling-mode']
  if (mode !== undefined && !['auto', 'interval', 'manual'].includes(mode)) {
    throw new UsageError(`--bundling-mode must be auto, interval or manual (got "${mode}")`)
  }
  const minStake = values['min-stake']
  if (minStake !== undefined && !/^\d{1,78}$/.test(minStake)) {
    throw new UsageError(`--min-stake must be a whole number of wei (got "${minStake}")`)
  }
  const level = values['log-level']
  if (
    level !== undefined &&
    !['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)
  ) {
    throw new UsageError(`--log-level must be fatal, error, warn, info or debug (got "${level}")`)
  }
  return {
    host: values.host ?? '127.0.0.1',
    port: int('port', values.port, 0, 65535) ?? DEFAULT_PORT,
    dataDir: values['data-dir'] ?? env.OPSTATION_DATA_DIR ?? defaultDataDir(),
    rpcUrl,
    chains,
    chainId: int('chain-id', values['chain-id'], 1, 2 ** 53 - 1),
    forkUrl,
    forkBlock: int('fork-block', forkBlockText, 0, 2 ** 53 - 1),
    blockTime: blockTime === undefined ? undefined : Number(blockTime),
    anvilPath: values['anvil-path'],
    noChain: values['no-chain'],
    unsafe: values.unsafe,
    bundlingMode: mode as ServiceConfigInput['bundlingMode'],
    minUnstakeDelay: int('min-unstake-delay', values['min-unstake-delay'], 0, 2 ** 32 - 1),
    minStake: minStake === undefined ? undefined : BigInt(minStake),
    maxPendingPerUnstakedSender: int('max-pending-per-sender', values['max-pending-per-sender'], 1, 1024),
    webhookTimeoutMs: int('webhook-timeout', values['webhook-timeout'], 1, 600_000),
    logLevel: level as ServiceConfigInput['logLevel'],
    resetStore: values['reset-store'] ?? isSet(env.OPSTATION_RESET_STORE),
    setup,
    // Another console build (a test's temp build, a package's extracted asar); relative to the working folder.
    ...(env.OPSTATION_CONSOLE_DIR?.trim()
      ? { consoleDir: path.resolve(env.OPSTATION_CONSOLE_DIR.trim()) }
      : {}),
  }
}

function parseChainsFlag(value: string | undefined) {
  if (value === undefined) return undefined
  try {
    return parseChainList(value)
  } catch (err) {
    if (err instanceof InvalidChainListError) throw new UsageError(err.message)
    throw err
  }
}

/** An on/off environment variable: `1`, `true` or `yes` is on. */
function isSet(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes)$/i.test(value.trim())
}

/** Prints the one ready line other programs (tests, scripts, the start script) wait for. */
export function formatReadyLine(service: Service): string {
  const info = service.info()
  return `opstation ready ${JSON.stringify({ ...info, authToken: service.authToken() })}`
}

export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === '-h' || command === '--help' || command === 'help' || command === undefined) {
    process.stdout.write(`${USAGE}\n`)
    return command === undefined ? 1 : 0
  }
  if (command === '-v' || command === '--version') {
    process.stdout.write(`${readPackageVersion()}\n`)
    return 0
  }
  if (command !== 'serve') {
    process.stderr.write(`opstation: unknown command "${command}" (try: opstation serve --help)\n`)
    return 2
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (rest.includes('-v') || rest.includes('--version')) return runCli(['--version'])
  const taken = findFlagNpmTook()
  if (taken) {
    process.stderr.write(
      `opstation: npm took --${taken} for itself; put -- before Opstation's flags: npm start -- --${taken} …\n`,
    )
    return 2
  }
  let input: ServiceConfigInput
  try {
    input = parseServeArgs(rest)
  } catch (err) {
    process.stderr.write(`opstation: ${(err as Error).message}\n`)
    return 2
  }
  // Signal handlers go in before anything is printed, so a signal right after the ready line still
  // shuts down cleanly (and one during start-up stops as soon as the service is up).
  let stopRequested: string | undefined
  let onStop: ((signal: string) => void) | undefined
  const requestStop = (signal: string) => {
    if (stopRequested) return
    stopRequested = signal
    onStop?.(signal)
  }
  process.on('SIGINT', () => requestStop('SIGINT'))
  process.on('SIGTERM', () => requestStop('SIGTERM'))

  let service: Service
  try {
    service = await createService(input)
  } catch (err) {
    // A setup file that does not parse or apply is a bad argument, as a bad flag is.
    if (err instanceof InvalidSetupError) {
      process.stderr.write(`opstation: ${err.shortMessage}\n`)
      return 2
    }
    const message = err instanceof AppError ? err.shortMessage : (err as Error).message
    process.stderr.write(`opstation: error: ${message}\n`)
    return 1
  }
  return new Promise<number>((resolve) => {
    onStop = (signal: string) => {
      process.stderr.write(`opstation: ${signal} received, shutting down\n`)
      service.close().then(
        () => resolve(0),
        (err) => {
          process.stderr.write(`opstation: error while shutting down: ${(err as Error).message}\n`)
          resolve(1)
        },
      )
    }
    if (stopRequested) onStop(stopRequested)
    else {
      process.stdout.write(`${formatReadyLine(service)}\n`)
      // For people: stdout keeps the one machine-readable line, the friendly summary goes to stderr.
      const info = service.info()
      process.stderr.write(
        `opstation: console ${info.consoleLoginUrl}  ·  bundler ${info.bundlerUrl}  ·  chain ${info.rpcUrl ?? 'none'}\n`,
      )
    }
  })
}
