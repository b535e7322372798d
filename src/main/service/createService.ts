import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Dapp } from '../../shared/api/dapps'
import type { Settings } from '../../shared/api/settings'
import type { ChainSpec } from '../../shared/chainList'
import type { ServiceInfo } from '../../shared/serviceInfo'
import { type Chain, startChain } from './chain'
import { type ChainRegistry, createChainRegistry } from './chain/chainRegistry'
import { type ChainStack, composeChainStack, type RuntimeSettings } from './chains/composeChainStack'
import { createRpcMethods } from './chains/createRpcMethods'
import { DEFAULT_CHAIN_ID, parseServiceConfig, type ServiceConfig, type ServiceConfigInput } from './config'
import { registerConsoleRoutes } from './console/registerConsoleRoutes'
import { ChainError, StartupError } from './errors'
import { createEventBus, type EventBus } from './events'
import type { RpcMethodRegistry } from './jsonrpc/defineMethod'
import { createLogger } from './log/createLogger'
import { type Logger, withLogFields } from './log/logger'
import { redactUrl } from './log/redactUrl'
import { createPaymaster } from './paymaster/createPaymaster'
import { buildServer } from './server/buildServer'
import { CHAIN_RPC_ROUTE } from './server/chainRpcRoutes'
import { createConsoleSession } from './server/consoleSession'
import { createSetupManager } from './setup/createSetupManager'
import { readSetup } from './setup/readSetup'
import { ensureDefaultAccount } from './store/accounts.repo'
import {
  assignChainFolders,
  type ChainFolders,
  readFolderKeeper,
  recordFolderKeeper,
} from './store/dataFolder/chainFolders'
import { lockDataFolder } from './store/lockDataFolder'
import { openStore, type Store } from './store/openStore'
import { protectDataFolder } from './store/protectDataFolder'
import { createRecordSequence } from './store/userOperations.repo'
import { definedOnly } from './util/definedOnly'
import { findPackageRoot, readPackageVersion } from './util/packageRoot'

export type { RuntimeSettings } from './chains/composeChainStack'

export type Service = {
  readonly config: ServiceConfig
  readonly store: Store
  readonly app: FastifyInstance
  /** The first chain (undefined with `noChain`). */
  readonly chain: Chain | undefined
  /** Every chain the service runs, by chain id, the first one first (empty with `noChain`). */
  readonly chains: ChainRegistry<ChainStack>
  readonly events: EventBus
  /** Settings that take effect without a restart; bundler and paymaster read them per request. */
  readonly runtime: RuntimeSettings
  /** The JSON-RPC methods served at the bundler and the paymaster URLs (every chain's URLs serve the same). */
  readonly rpcMethods: { bundler: RpcMethodRegistry; paymaster: RpcMethodRegistry }
  /** URLs and status; changes as the chain starts or restarts. */
  info: () => ServiceInfo
  authToken: () => string
  /** Stops listening, flushes the store, stops the chains and releases the data folder. */
  close: () => Promise<void>
}

/**
 * Composition root: config → data folder lock → store → account → chains (each with its bundler and paymaster:
 * chains/composeChainStack.ts) → server. Runs under plain Node (never imports electron); the Electron main process
 * and the CLI both call it.
 */
export async function createService(input: ServiceConfigInput): Promise<Service> {
  const bootConfig = parseServiceConfig(input)
  // A setup file that does not read stops the start before anything starts.
  const setup = bootConfig.setup === undefined ? undefined : await readSetup(bootConfig.setup)
  // The setup's chains are the service's when the caller names none (they are checked against the service's
  // otherwise, when the setup is applied).
  const namedChains = bootConfig.chains ?? (namesNoChain(bootConfig) ? setup?.setup.chains : undefined)
  const log = createLogger(bootConfig.logLevel)
  await mkdir(bootConfig.dataDir, { recursive: true, mode: 0o700 })
  const lock = lockDataFolder(bootConfig.dataDir)
  let app: FastifyInstance | undefined
  let started: Chain[] = []
  try {
    const protection = await protectDataFolder(bootConfig.dataDir)
    if (protection.removedTemporaryFiles.length > 0)
      log.warn({ files: protection.removedTemporaryFiles }, 'removed temporary files of writes cut short')
    if (protection.notProtected.length > 0)
      log.warn({ files: protection.notProtected }, 'could not make these private to the user (not the owner)')
    const events = createEventBus()
    const store = await openStore({
      dataDir: bootConfig.dataDir,
      log,
      resetStore: bootConfig.resetStore,
      // A store written before records carried their chain was written by a one-chain service: that chain's.
      legacyChainId: namedChains?.[0]?.chainId ?? bootConfig.chainId,
    })
    // The chains the console saved run when neither the caller nor the setup names a chain.
    const chainList =
      namedChains ?? (namesNoChain(bootConfig) ? (store.data.settings.chains ?? undefined) : undefined)
    // A list of one chain runs as the single-chain options; a longer one runs each chain in a stack of its own.
    const singleChain = chainList?.length === 1 ? asSingleChainOptions(chainList[0] as ChainSpec) : undefined
    const severalChains = chainList && chainList.length > 1 ? chainList : undefined
    // Console settings apply unless the caller (a command-line flag) says otherwise; a list of chains names every
    // chain, so the console's node setting (one chain's) stands aside.
    const config = parseServiceConfig({
      ...settingsToConfig(store.data.settings, { node: !chainList }),
      ...definedOnly(input),
      ...singleChain,
      ...(severalChains ? { chains: severalChains } : {}),
      dataDir: bootConfig.dataDir,
    })
    const runtime: RuntimeSettings = {
      bundlingMode: config.bundlingMode,
      unsafe: config.unsafe,
      webhookTimeoutMs: config.webhookTimeoutMs,
    }
    const folders = severalChains && (await assignFolders(config.dataDir, severalChains))
    started = config.noChain
      ? []
      : await startChains(config, severalChains && folders && { severalChains, folders }, log)
    await ensureDefaultAccount(store)
    // Records of several chains share one sequence of numbers (each chain's log holds its own records).
    const sequence = severalChains ? createRecordSequence(store) : undefined
    const stacks = started.map((chain) =>
      composeChainStack({
        chain,
        store,
        events,
        log,
        runtime,
        bundlerOptions: {
          minStake: config.minStake,
          minUnstakeDelay: config.minUnstakeDelay,
          maxPendingPerUnstakedSender: config.maxPendingPerUnstakedSender,
        },
        scope: severalChains ? chain.chainId : undefined,
        records: sequence && {
          historyDir: folderOf(folders, chain.chainId).historyDir,
          sequence,
        },
      }),
    )
    // A revert or a reset the last run was killed in: finished or undone, on each chain, before anything is served.
    await Promise.all(stacks.map((stack) => stack.chain.stack.finishInterrupted()))
    const chains = createChainRegistry(stacks)
    const first = chains.first
    const chain = first?.chain
    const chainId = chain?.chainId ?? config.chainId ?? DEFAULT_CHAIN_ID
    // Without a chain the URLs still answer, each method with the error that no chain runs.
    const chainless = first
      ? undefined
      : {
          chainId,
          rpcMethods: createRpcMethods(
            () => {
              throw new ChainError(
                'No chain is running (started with --no-chain): the bundler is unavailable',
              )
            },
            createPaymaster({
              store,
              getChain: () => undefined,
              events,
              log,
              getWebhookTimeoutMs: () => runtime.webhookTimeoutMs,
            }),
          ),
        }
    const resolveRpcChain = (urlChainId: string) =>
      chainless ? createChainRegistry([chainless]).resolve(urlChainId) : chains.resolve(urlChainId)
    const consoleDir = config.consoleDir ?? path.join(findPackageRoot(), 'out', 'renderer')
    const version = readPackageVersion()

    let baseUrl = ''
    const session = createConsoleSession(store)
    const setups = await createSetupManager({
      store,
      chains: { chainIds: chains.chainIds, getChain: (id) => chains.get(id)?.chain },
      dataDir: config.dataDir,
      log,
    })
    const bundlerKey = () => store.data.accounts[0]?.bundlerKey ?? ''
    const info = (): ServiceInfo => ({
      version,
      dashboardUrl: baseUrl,
      bundlerUrl: `${baseUrl}/api/v2/${chainId}/${bundlerKey()}`,
      paymasterUrlTemplate: `${baseUrl}/api/v1/${chainId}/{apiKey}`,
      consoleUrl: `${baseUrl}/console/`,
      consoleLoginUrl: `${baseUrl}/console/?token=${session.loginToken}`,
      chainId,
      chains: stacks.map((stack) => stack.describe(baseUrl, bundlerKey())),
      // The embedded chain is reached through the service's guarded chain RPC (chainRpcRoutes.ts); an external
      // node by its own URL.
      rpcUrl: chain ? (chain.kind === 'embedded' ? `${baseUrl}${CHAIN_RPC_ROUTE}` : chain.rpcUrl) : null,
      dataDir: config.dataDir,
      chain: first
        ? { ...first.status, checkedAt: chain?.readCheckedAt()?.toISOString() }
        : { kind: 'none', state: 'none', addresses: null, missing: [] },
      chainTimeOffsetSeconds: chain ? chain.clock.offsetSeconds() : null,
      storeSetAside: store.recovery ?? null,
    })

    const rpcMethods = (first ?? chainless)!.rpcMethods
    app = await buildServer({
      store,
      host: config.host,
      bodyLimit: config.bodyLimit,
      logger: log,
      consoleDir,
      bundlerMethods: rpcMethods.bundler,
      paymasterMethods: rpcMethods.paymaster,
      resolveRpcChain,
      getSupportedChainIds: () => (first ? [...chains.chainIds] : [chainId]),
      getServiceInfo: info,
      session,
      getChain: (urlChainId) => (urlChainId === undefined ? chain : chains.resolve(urlChainId).chain),
      provisionDapp: first ? (dapp: Dapp) => chains.resolve(dapp.chainId).provisionDapp(dapp) : undefined,
      plugins: [
        (scope) =>
          registerConsoleRoutes(scope, {
            store,
            session,
            events,
            log,
            dataDir: config.dataDir,
            chains,
            getWebhookTimeoutMs: () => runtime.webhookTimeoutMs,
            setups,
            runtime,
            runningRpcUrl: config.noChain || severalChains ? null : (config.rpcUrl ?? null),
            runningChains: chainList ?? null,
          }),
      ],
    })
    const address = await listen(app, config.host, config.port)
    baseUrl = `http://${formatHost(config.host)}:${address.port}`
    for (const stack of stacks) await stack.start()
    // The setup goes on once the chain and the gas tanks are there (it sets their balances), before the start resolves.
    if (setup) await setups.applySetup(setup)

    const server = app
    let closed = false
    return {
      config,
      store,
      app: server,
      chain,
      chains,
      events,
      runtime,
      rpcMethods,
      info,
      authToken: () => store.data.accounts[0]?.authToken ?? '',
      async close() {
        if (closed) return
        closed = true
        try {
          await server.close()
          for (const stack of stacks) await stack.close()
          await store.flush()
          await Promise.all(stacks.map((stack) => stack.chain.stop()))
        } finally {
          lock.release()
        }
      },
    }
  } catch (err) {
    await app?.close().catch(() => {})
    await Promise.all(started.map((chain) => chain.stop().catch(() => {})))
    lock.release()
    throw err
  }
}

/**
 * The folders of a service's several chains (store/dataFolder/chainFolders.ts): the chain the data folder's own
 * `chain/` holds keeps it, recorded before any chain starts, so a start cut short leaves it named.
 */
async function assignFolders(
  dataDir: string,
  chains: readonly ChainSpec[],
): Promise<Map<number, ChainFolders>> {
  const recorded = await readFolderKeeper(dataDir)
  const { folders, keeper } = assignChainFolders(
    dataDir,
    chains.map((spec) => spec.chainId),
    recorded,
  )
  if (keeper !== undefined) await recordFolderKeeper(dataDir, keeper)
  return folders
}

function folderOf(folders: Map<number, ChainFolders> | undefined, chainId: number): ChainFolders {
  const found = folders?.get(chainId)
  if (!found) throw new Error(`no data folder assigned to chain ${chainId}`)
  return found
}

/**
 * Starts the service's chains: the one chain of the single-chain options (in the data folder's own `chain/`, which
 * it records as its own), or each chain of a list of several, in parallel, each in its folder. A chain of several
 * that does not start stops the others and the start, with a one-line error naming it.
 */
async function startChains(
  config: ServiceConfig,
  several: { severalChains: readonly ChainSpec[]; folders: Map<number, ChainFolders> } | undefined,
  log: Logger,
): Promise<Chain[]> {
  const common = { dataDir: config.dataDir, blockTime: config.blockTime, anvilPath: config.anvilPath }
  if (!several) {
    const chain = await startChain({
      ...common,
      // A fork flag wins over the console's node setting.
      rpcUrl: config.forkUrl ? undefined : config.rpcUrl,
      chainId: config.chainId,
      fork: config.forkUrl ? { url: config.forkUrl, block: config.forkBlock } : undefined,
      log,
    })
    await recordFolderKeeper(config.dataDir, chain.chainId).catch(async (err) => {
      await chain.stop().catch(() => {})
      throw err
    })
    return [chain]
  }
  const { severalChains, folders } = several
  const results = await Promise.allSettled(
    severalChains.map(async (spec) => {
      const chain = await startChain({
        ...common,
        chainDir: folderOf(folders, spec.chainId).chainDir,
        rpcUrl: spec.rpcUrl,
        chainId: spec.chainId,
        fork: spec.forkUrl ? { url: spec.forkUrl, block: spec.forkBlock } : undefined,
        log: withLogFields(log, { chainId: spec.chainId }),
      })
      if (chain.chainId !== spec.chainId) {
        await chain.stop().catch(() => {})
        throw new StartupError(`the node at ${redactUrl(chain.rpcUrl)} serves chain ${chain.chainId}`)
      }
      return chain
    }),
  )
  const chains = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
  const failed = results.findIndex((r) => r.status === 'rejected')
  if (failed === -1) return chains
  await Promise.all(chains.map((chain) => chain.stop().catch(() => {})))
  const reason = (results[failed] as PromiseRejectedResult).reason as Error
  throw new StartupError(
    `Chain ${severalChains[failed]?.chainId} did not start: ${oneLine(reason?.message ?? String(reason))}`,
    { cause: reason },
  )
}

/** A message on one line (a node's or anvil's output may span several). */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' | ').trim()
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<{ port: number }> {
  try {
    await app.listen({ host, port })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') {
      throw new StartupError(
        `Port ${port} on ${host} is already in use (another Opstation?). Use --port <n>, or --port 0 for any free port.`,
      )
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new StartupError(`Cannot listen on host ${host}: it is not an address of this machine.`)
    }
    if (code === 'EACCES')
      throw new StartupError(`Not allowed to listen on ${host}:${port} (a port below 1024 needs privileges).`)
    throw err
  }
  const addr = app.server.address()
  if (!addr || typeof addr === 'string') throw new StartupError('The server did not report its port')
  return { port: addr.port }
}

function formatHost(host: string): string {
  // Listening on every interface: URLs handed out still point at loopback.
  if (/^(0\.0\.0\.0|::)$/.test(host)) return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

/** A list of one chain, as the single-chain options (the service then runs as it does with them). */
function asSingleChainOptions(only: ChainSpec): Partial<ServiceConfigInput> {
  return {
    chains: undefined,
    chainId: only.chainId,
    ...(only.forkUrl ? { forkUrl: only.forkUrl, forkBlock: only.forkBlock } : {}),
    ...(only.rpcUrl ? { rpcUrl: only.rpcUrl } : {}),
  }
}

/** Whether the caller left the chain to the defaults (no chains, chain id, fork, node or --no-chain). */
function namesNoChain(config: ServiceConfig): boolean {
  return (
    config.chains === undefined &&
    config.chainId === undefined &&
    config.forkUrl === undefined &&
    config.rpcUrl === undefined &&
    !config.noChain
  )
}

/** The console's saved settings as service options; `node: false` leaves out its node (a list of chains names each). */
function settingsToConfig(settings: Settings, { node }: { node: boolean }): Partial<ServiceConfigInput> {
  return {
    rpcUrl: node ? (settings.rpcUrl ?? undefined) : undefined,
    bundlingMode: settings.bundlingMode,
    unsafe: settings.unsafe,
    webhookTimeoutMs: settings.webhookTimeoutMs,
  }
}
