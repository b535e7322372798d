import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Dapp } from '../../shared/api/dapps'
import type { Settings } from '../../shared/api/settings'
import type { ChainStatus, ServiceInfo } from '../../shared/serviceInfo'
import { type Bundler, createBundler } from './bundler/createBundler'
import { createBundlerMethods } from './bundler/methods'
import { ethChainId } from './bundler/methods/eth_chainId'
import {
  pimlicoGetUserOperationGasPrice,
  zdGetUserOperationGasPrice,
} from './bundler/methods/getUserOperationGasPrice'
import { type Chain, startChain } from './chain'
import type { ChainSpec } from './chain/chainSpecs'
import { DEFAULT_CHAIN_ID, parseServiceConfig, type ServiceConfig, type ServiceConfigInput } from './config'
import { describeChainEvent } from './console/describeChainEvent'
import { registerConsoleRoutes } from './console/registerConsoleRoutes'
import { ChainError, StartupError } from './errors'
import { createEventBus, type EventBus } from './events'
import { provisionGasTank, provisionGasTanks } from './gasTanks/provisionGasTanks'
import { createMethodRegistry, type RpcMethod, type RpcMethodRegistry } from './jsonrpc/defineMethod'
import { createLogger } from './log/createLogger'
import { createPaymaster } from './paymaster/createPaymaster'
import { buildServer } from './server/buildServer'
import { CHAIN_RPC_ROUTE } from './server/chainRpcRoutes'
import { createConsoleSession } from './server/consoleSession'
import { createSetupManager } from './setup/createSetupManager'
import { readSetup } from './setup/readSetup'
import { ensureDefaultAccount } from './store/accounts.repo'
import { forgetGasTanksFunded } from './store/dapps.repo'
import { lockDataFolder } from './store/lockDataFolder'
import { openStore, type Store } from './store/openStore'
import { protectDataFolder } from './store/protectDataFolder'
import { captureStore, resetStoreActivity, restoreStore, settleStore } from './store/storeSnapshots'
import { definedOnly } from './util/definedOnly'
import { findPackageRoot, readPackageVersion } from './util/packageRoot'

export type RuntimeSettings = Pick<ServiceConfig, 'bundlingMode' | 'unsafe' | 'webhookTimeoutMs'>

export type Service = {
  readonly config: ServiceConfig
  readonly store: Store
  readonly app: FastifyInstance
  /** The chain (undefined with `noChain`). */
  readonly chain: Chain | undefined
  readonly events: EventBus
  /** Settings that take effect without a restart; bundler and paymaster read them per request. */
  readonly runtime: RuntimeSettings
  /** The JSON-RPC methods served at the bundler and the paymaster URLs. */
  readonly rpcMethods: { bundler: RpcMethodRegistry; paymaster: RpcMethodRegistry }
  /** URLs and status; changes as the chain starts or restarts. */
  info: () => ServiceInfo
  authToken: () => string
  /** Stops listening, flushes the store, stops the chain and releases the data folder. */
  close: () => Promise<void>
}

/**
 * Composition root: config → data folder lock → store → account → chain → bundler/paymaster → server.
 * Runs under plain Node (never imports electron); the Electron main process and the CLI both call it.
 */
export async function createService(input: ServiceConfigInput): Promise<Service> {
  const bootConfig = parseServiceConfig(input)
  // A setup file that does not read stops the start before anything starts.
  const setup = bootConfig.setup === undefined ? undefined : await readSetup(bootConfig.setup)
  // The setup's chains are the service's when the caller names none (they are checked against the service's
  // otherwise, when the setup is applied).
  const chains = bootConfig.chains ?? (namesNoChain(bootConfig) ? setup?.setup.chains : undefined)
  const singleChain = chains ? readSingleChain(chains) : undefined
  const log = createLogger(bootConfig.logLevel)
  await mkdir(bootConfig.dataDir, { recursive: true, mode: 0o700 })
  const lock = lockDataFolder(bootConfig.dataDir)
  let app: FastifyInstance | undefined
  let chain: Chain | undefined
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
      legacyChainId: chains?.[0]?.chainId ?? bootConfig.chainId,
    })
    // Console settings apply unless the caller (a command-line flag) says otherwise; a list of chains names every
    // chain, so the console's node setting (one chain's) stands aside.
    const config = parseServiceConfig({
      ...(singleChain ? {} : settingsToConfig(store.data.settings)),
      ...definedOnly(input),
      ...singleChain,
      dataDir: bootConfig.dataDir,
    })
    const runtime: RuntimeSettings = {
      bundlingMode: config.bundlingMode,
      unsafe: config.unsafe,
      webhookTimeoutMs: config.webhookTimeoutMs,
    }
    chain = config.noChain
      ? undefined
      : await startChain({
          dataDir: config.dataDir,
          // A fork flag wins over the console's node setting.
          rpcUrl: config.forkUrl ? undefined : config.rpcUrl,
          chainId: config.chainId,
          fork: config.forkUrl ? { url: config.forkUrl, block: config.forkBlock } : undefined,
          blockTime: config.blockTime,
          anvilPath: config.anvilPath,
          log,
        })
    await ensureDefaultAccount(store)
    const chainStatus: ChainStatus = chain
      ? {
          kind: chain.kind,
          state: 'ready',
          addresses: chain.addresses,
          missing: chain.missing,
          fork: chain.fork,
        }
      : { kind: 'none', state: 'none', addresses: null, missing: [] }
    const chainId = chain?.chainId ?? config.chainId ?? DEFAULT_CHAIN_ID
    chain?.onEvent((event) => {
      Object.assign(chainStatus, describeChainEvent(event, chain!.rpcUrl))
      if (event.type === 'chain.reachable' || event.type === 'chain.restarted') log.info(chainStatus.message)
      else log.warn({ event: event.type }, chainStatus.message)
      events.emit('chain.status', { state: chainStatus.state, message: chainStatus.message })
      if (event.type === 'chain.reachable' || event.type === 'chain.recovered')
        void restoreGasTanks(event.type === 'chain.recovered' && event.reset)
    })
    // Back from an outage: the gas tanks of dApps created meanwhile. After a reset every tank is empty: funded again
    // as on first start.
    const restoreGasTanks = async (reset: boolean) => {
      if (!chain) return
      if (reset) await forgetGasTanksFunded(store, chain.chainId)
      const changed = await provisionGasTanks(chain, store, log).catch((err) => {
        log.warn({ err }, 'gas tanks not restored')
        return 0
      })
      if (changed === 0) return
      chainStatus.message = `${chainStatus.message}; the gas tanks of ${changed} dApp${changed === 1 ? '' : 's'} ${reset ? 'funded again' : 'created'}`
      log.info(chainStatus.message)
      events.emit('chain.status', { state: chainStatus.state, message: chainStatus.message })
    }
    const paymaster = createPaymaster({
      store,
      getChain: () => chain,
      events,
      log,
      getWebhookTimeoutMs: () => runtime.webhookTimeoutMs,
    })
    // The store's part of the stack's snapshots (chain/stack/): the document goes back with the chain (all but the
    // account and the settings), with the spending the paymaster read from it; registered before the bundler's,
    // whose records are read again from the document once it is back.
    if (chain) {
      const running = chain
      running.stack.register({
        name: 'store',
        hold: () => paymaster.deps.usage.hold(),
        settle: () => settleStore(store),
        capture: () => captureStore(store),
        async restore(state) {
          await restoreStore(store, state)
          paymaster.deps.usage.rewind()
        },
        async reset() {
          await resetStoreActivity(store, running.chainId)
          paymaster.deps.usage.rewind()
          await provisionGasTanks(running, store, log)
        },
        // A restart finishing a revert or a reset puts the document back; the gas tanks are funded by the start.
        durable: {
          save: (state) => state,
          load: (saved) => JSON.stringify(saved),
          async reset() {
            await resetStoreActivity(store, running.chainId)
            paymaster.deps.usage.rewind()
          },
        },
      })
      // The console hears of it: a revert or a reset takes records away (the Activity reads its feed again), and the
      // chain clock's moves show as chain time beside wall time.
      running.stack.register({
        name: 'console events',
        capture: () => null,
        restore: () => events.emit('stack.reverted', { kind: 'revert' }),
        reset: () => events.emit('stack.reverted', { kind: 'reset' }),
      })
      running.clock.onChange((chainTime) =>
        events.emit('chain.time', { chainTime, offsetSeconds: chainTime - Math.floor(Date.now() / 1000) }),
      )
    }
    const bundler: Bundler | undefined = chain
      ? createBundler({
          chain,
          store,
          events,
          log,
          settings: runtime,
          options: {
            minStake: config.minStake,
            minUnstakeDelay: config.minUnstakeDelay,
            maxPendingPerUnstakedSender: config.maxPendingPerUnstakedSender,
          },
          onBundleMined: paymaster.observeMinedBundle,
        })
      : undefined
    // A revert or a reset the last run was killed in: finished or undone before anything is served.
    await chain?.stack.finishInterrupted()
    const getBundler = () => {
      if (!bundler)
        throw new ChainError('No chain is running (started with --no-chain): the bundler is unavailable')
      return bundler
    }
    const provisionDapp = chain ? (dapp: Dapp) => provisionGasTank(chain!, store, dapp) : undefined
    const consoleDir = config.consoleDir ?? path.join(findPackageRoot(), 'out', 'renderer')
    const version = readPackageVersion()

    let baseUrl = ''
    const session = createConsoleSession(store)
    const setups = await createSetupManager({
      store,
      chains: { chainIds: [chainId], getChain: (id) => (id === chainId ? chain : undefined) },
      dataDir: config.dataDir,
      log,
    })
    const info = (): ServiceInfo => ({
      version,
      dashboardUrl: baseUrl,
      bundlerUrl: `${baseUrl}/api/v2/${chainId}/${store.data.accounts[0]?.bundlerKey ?? ''}`,
      paymasterUrlTemplate: `${baseUrl}/api/v1/${chainId}/{apiKey}`,
      consoleUrl: `${baseUrl}/console/`,
      consoleLoginUrl: `${baseUrl}/console/?token=${session.loginToken}`,
      chainId,
      // The embedded chain is reached through the service's guarded chain RPC (chainRpcRoutes.ts); an external
      // node by its own URL.
      rpcUrl: chain ? (chain.kind === 'embedded' ? `${baseUrl}${CHAIN_RPC_ROUTE}` : chain.rpcUrl) : null,
      dataDir: config.dataDir,
      chain: { ...chainStatus, checkedAt: chain?.readCheckedAt()?.toISOString() },
      chainTimeOffsetSeconds: chain ? chain.clock.now() - Math.floor(Date.now() / 1000) : null,
      storeSetAside: store.recovery ?? null,
    })

    const rpcMethods = {
      bundler: createMethodRegistry(createBundlerMethods(getBundler)),
      // Some clients ask the paymaster URL for gas prices (permissionless' paymaster-as-bundler setups). Registered
      // with or without a chain, as at the bundler URL (without one they answer its error), so that the methods, and
      // the OpenRPC document written from a service without a chain, are the same everywhere.
      paymaster: createMethodRegistry([
        ethChainId,
        ...paymaster.methods,
        pimlicoGetUserOperationGasPrice(getBundler),
        zdGetUserOperationGasPrice(getBundler),
      ] as RpcMethod[]),
    }
    app = await buildServer({
      store,
      host: config.host,
      bodyLimit: config.bodyLimit,
      logger: log,
      consoleDir,
      bundlerMethods: rpcMethods.bundler,
      paymasterMethods: rpcMethods.paymaster,
      getChainId: () => chainId,
      getSupportedChainIds: () => [chainId],
      getServiceInfo: info,
      session,
      getChain: () => chain,
      provisionDapp,
      plugins: [
        (scope) =>
          registerConsoleRoutes(scope, {
            store,
            session,
            events,
            log,
            dataDir: config.dataDir,
            getChain: () => chain,
            getUserOperations: () => bundler?.userOperations,
            getWebhookTimeoutMs: () => runtime.webhookTimeoutMs,
            setups,
            runtime,
            runningRpcUrl: config.noChain ? null : (config.rpcUrl ?? null),
          }),
      ],
    })
    const address = await listen(app, config.host, config.port)
    baseUrl = `http://${formatHost(config.host)}:${address.port}`
    if (chain) paymaster.start()

    // dApps created while no chain ran (or on another node) get their gas tanks now, and dApps from before
    // EntryPoint v0.7/v0.8 the tanks of those versions.
    if (chain) await provisionGasTanks(chain, store, log)
    // The setup goes on once the chain and the gas tanks are there (it sets their balances), before the start resolves.
    if (setup) await setups.applySetup(setup)

    const server = app
    const runningChain = chain
    let closed = false
    return {
      config,
      store,
      app: server,
      chain: runningChain,
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
          await paymaster.stop()
          await bundler?.close()
          await store.flush()
          await runningChain?.stop()
        } finally {
          lock.release()
        }
      },
    }
  } catch (err) {
    await app?.close().catch(() => {})
    await chain?.stop().catch(() => {})
    lock.release()
    throw err
  }
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

/**
 * A list of one chain, as the single-chain options. Running several chains in one service is not composed yet (the
 * per-chain stacks): a longer list stops the start with a one-line error rather than running only its first chain.
 */
function readSingleChain(chains: readonly ChainSpec[]): Partial<ServiceConfigInput> {
  const [only, ...others] = chains
  if (!only || others.length > 0)
    throw new StartupError(
      `This build runs one chain per service: chains ${chains.map((c) => c.chainId).join(',')} names ${chains.length}; start one Opstation per chain (each with --chain-id and its own --data-dir) for now`,
    )
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

function settingsToConfig(settings: Settings): Partial<ServiceConfigInput> {
  return {
    rpcUrl: settings.rpcUrl ?? undefined,
    bundlingMode: settings.bundlingMode,
    unsafe: settings.unsafe,
    webhookTimeoutMs: settings.webhookTimeoutMs,
  }
}
