import { join } from 'node:path'
import { createPublicClient, createWalletClient, defineChain } from 'viem'
import { ChainError } from '../errors'
import { silentLogger } from '../log/logger'
import { redactForkUrl } from './anvil/prepareFork'
import { type EmbeddedNode, startEmbeddedNode } from './anvil/startEmbeddedNode'
import { createChainClock } from './clock/createChainClock'
import { defaults } from './constants'
import { deployContracts, isOwnPaymaster } from './deploy/deployContracts'
import { listWatchedContracts, readKnownNode } from './health/readKnownNode'
import { watchNode } from './health/watchNode'
import { openKeyStore } from './keys/openKeyStore'
import { createNodeTransport } from './node/createNodeTransport'
import { detectNodeCapabilities } from './node/detectNodeCapabilities'
import { gateNodeRequest } from './node/gateNodeRequest'
import { registerNodeRequest, requestRpc } from './node/requestRpc'
import { transportOf } from './node/transportOf'
import { createStackSnapshots } from './stack/createStackSnapshots'
import { routeStackMethods } from './stack/routeStackMethods'
import { createNonceManagers } from './transactions/createNonceManagers'
import { submitTransaction } from './transactions/submitTransaction'
import type { Chain, ChainConfig, ChainEvent, ChainEventListener } from './types'

/**
 * Starts the chain: an embedded anvil (default) or an external node (`rpcUrl`), then deploys or verifies every
 * contract (idempotent) and returns viem clients, keys and addresses.
 */
export async function startChain(config: ChainConfig): Promise<Chain> {
  const started = performance.now()
  const log = config.log ?? silentLogger
  const chainDir = config.chainDir ?? join(config.dataDir, 'chain')
  const listeners = new Set<ChainEventListener>()
  // From the embedded node's exit until its restart is complete, the service's calls to it are refused (503).
  let runs = 0
  let restarting = false
  const emit = (event: ChainEvent) => {
    if (event.type === 'chain.exited') {
      restarting = true
      runs++
    } else if (event.type === 'chain.restarted') restarting = false
    for (const listener of listeners) {
      try {
        listener(event)
      } catch (err) {
        log.error({ err }, 'chain event listener threw')
      }
    }
  }

  let afterRestart: () => Promise<void> = async () => {}
  let embedded: EmbeddedNode | undefined
  if (!config.rpcUrl) {
    embedded = await startEmbeddedNode({
      chainDir,
      chainId: config.chainId,
      fork: config.fork,
      anvilPath: config.anvilPath,
      log,
      emit,
      afterRestart: () => afterRestart(),
    })
  }
  /** The node's URL: an embedded anvil's moves when a restart finds its port taken (startEmbeddedNode.ts). */
  const nodeUrl = () => config.rpcUrl ?? (embedded as EmbeddedNode).rpcUrl
  // Every client of the chain (bundler, paymaster, deployment, console) shares this transport.
  const node = createNodeTransport({ rpcUrl: nodeUrl(), ipcPath: embedded?.ipcPath })
  // On the embedded node every state-changing call is journaled before it is answered (a hard kill loses nothing
  // a client was told); an external node keeps its own state.
  const request = embedded ? embedded.journal(node.request) : node.request
  const transport = embedded ? transportOf(request) : node.transport

  try {
    let chainId: number
    try {
      chainId = await createPublicClient({ transport }).getChainId()
    } catch (err) {
      throw new ChainError(`The node at ${nodeUrl()} does not answer eth_chainId`, { cause: err })
    }
    if (config.rpcUrl && config.chainId !== undefined && config.chainId !== chainId) {
      log.warn(
        { configured: config.chainId, node: chainId },
        'configured chainId differs from the node; using the node',
      )
    }
    const viemChain = defineChain({
      id: chainId,
      name: embedded ? 'Opstation anvil' : `Chain ${chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [nodeUrl()] } },
    })
    // The service's clients go through the gate, closed while the node is away (restarting, unreachable, being
    // recovered: `outage` says how); deployment and the watch (at start, after a restart, in recovery) do not.
    let outage: string | undefined
    const serving = gateNodeRequest(
      request,
      () => (restarting || outage !== undefined ? undefined : runs),
      () => outage ?? 'the chain is restarting',
    )
    // Snapshots, reverts and resets take the service's state with the chain (stack/), and a call that moves the
    // chain's time moves the clock every decision reads (clock/): for the service's clients and the chain RPC alike.
    const clock = createChainClock(serving.request)
    const stack = createStackSnapshots({
      request: serving.request,
      log,
      // A kill during a revert or a reset is finished or undone at the next start: the embedded node's data folder
      // keeps the stack's intent record (an external node keeps its own state).
      intentPath: embedded ? join(config.dataDir, 'chain', 'stack-intent.json') : undefined,
    })
    let redeployAfterReset = async () => {}
    let stackHeld = 0
    const routed = routeStackMethods({
      request: serving.request,
      stack,
      clock,
      redeploy: () => redeployAfterReset(),
      isFork: embedded?.fork !== undefined,
    })
    const routedTransport = transportOf(routed)
    const publicClient = createPublicClient({
      chain: viemChain,
      transport: routedTransport,
      pollingInterval: 100,
    })
    registerNodeRequest(publicClient, routed)
    const deployClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 100 })
    registerNodeRequest(deployClient, request)
    const capabilities = await detectNodeCapabilities(publicClient, chainId)
    const keys = await openKeyStore({
      path: join(chainDir, 'keys.json'),
      chainId,
      isDev: capabilities.isDev,
      executorPrivateKey: config.executorPrivateKey,
      paymasterSignerPrivateKey: config.paymasterSignerPrivateKey,
      log,
    })
    const executorClient = createWalletClient({
      account: keys.executor,
      chain: viemChain,
      transport: routedTransport,
      pollingInterval: 100,
    })
    const deployExecutorClient = createWalletClient({
      account: keys.executor,
      chain: viemChain,
      transport,
      pollingInterval: 100,
    })

    // One nonce sequence per sending account, shared by every sender (deployment included: it runs again after a
    // restart while requests are served).
    const nonceManagers = createNonceManagers({ publicClient: deployClient, log })
    const executor = { address: keys.executor.address, client: executorClient, account: keys.executor }
    const deployExecutor = { ...executor, client: deployExecutorClient }
    const deploy = () =>
      deployContracts({
        publicClient: deployClient,
        executor: deployExecutorClient,
        submit: (request) => submitTransaction({ executor: deployExecutor, nonceManagers }, request),
        capabilities,
        signer: keys.paymasterSigner.address,
        repairMismatches: embedded?.fork ? isOwnPaymaster : embedded !== undefined,
        log,
      })
    const applyMiningMode = async () => {
      if (embedded && config.blockTime)
        await requestRpc(deployClient, 'evm_setIntervalMining', [config.blockTime])
    }

    const result = await deploy()
    // What the deployment sent is history no client asks for again: the saved state leaves it out.
    if (embedded && result.deployed.length > 0)
      embedded.startHistoryAfter(Number(await deployClient.getBlockNumber({ cacheTime: 0 })))
    await applyMiningMode()
    let watchStop = () => {}

    const chain: Chain = {
      chainId,
      get rpcUrl() {
        return nodeUrl()
      },
      kind: embedded ? 'embedded' : 'external',
      fork: embedded?.fork ? { url: redactForkUrl(embedded.fork.url), block: embedded.fork.block } : null,
      capabilities,
      anvil: embedded
        ? {
            pid: embedded.pid,
            binary: embedded.binary,
            statePath: embedded.statePath,
            get port() {
              return embedded.port
            },
          }
        : null,
      publicClient,
      // The chain RPC served to users and wallets (chainRpcRoutes.ts): refused like the service's own calls while
      // the embedded node restarts.
      request: routed,
      clock,
      stack,
      executor,
      nonceManagers,
      paymasterSigner: keys.paymasterSigner,
      addresses: result.addresses,
      missing: result.missing,
      mismatched: result.mismatched,
      deployed: result.deployed,
      gasTankDefaultWei: config.gasTankDefaultWei ?? defaults.gasTankWei,
      startMs: Math.round(performance.now() - started),
      onEvent: (listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      getPaymasterIdAccount: keys.getPaymasterIdAccount,
      addPaymasterIdKey: keys.addPaymasterIdKey,
      watch: async () => ({ state: 'ready' }),
      readCheckedAt: () => undefined,
      stop: async () => {
        watchStop()
        listeners.clear()
        await embedded?.stop()
        node.close()
      },
    }

    const known = await readKnownNode(deployClient, chainId)
    /**
     * After a restart or a reset: the accounts' nonces read again (the node may be behind what was counted), every
     * contract verified or deployed again, the mining mode set, and the node as it is now noted for the watch.
     */
    const redeploy = async () => {
      nonceManagers.resyncAll()
      const again = await deploy()
      chain.missing.splice(0, chain.missing.length, ...again.missing)
      chain.mismatched.splice(0, chain.mismatched.length, ...again.mismatched)
      chain.deployed.splice(0, chain.deployed.length, ...again.deployed)
      await applyMiningMode()
      Object.assign(known, await readKnownNode(deployClient, chainId))
      return again
    }
    const watch = watchNode({
      request,
      known,
      listContracts: () => listWatchedContracts(chain),
      // A look during a revert or a reset would take the stack's own work for a reset node.
      isPaused: () => restarting || stackHeld > 0,
      readRun: () => runs,
      log,
      intervalMs: config.watchIntervalMs,
      blockTimeMs: embedded && config.blockTime ? config.blockTime * 1000 : undefined,
      onVerdict: async (verdict, previous) => {
        if (verdict.state === 'unreachable') {
          // The embedded node's exit is its supervisor's to tell (restarting, then ready): a look may find the socket
          // closed a moment before the supervisor sees the exit.
          const run = runs
          if (embedded) await new Promise((resolve) => setTimeout(resolve, 1_000))
          if (restarting || runs !== run) return
          outage = `the node at ${nodeUrl()} has not answered since ${new Date().toISOString()}: ${verdict.error}`
          emit({ type: 'chain.unreachable', since: new Date(), error: verdict.error })
        } else if (verdict.state === 'wrong-chain') {
          outage = `the node at ${nodeUrl()} now serves chain id ${verdict.chainId}, not ${chainId}`
          emit({ type: 'chain.wrongChain', chainId: verdict.chainId })
        } else if (verdict.state === 'stalled') {
          emit({ type: 'chain.stalled', head: verdict.head, stillMs: verdict.stillMs })
        } else if (verdict.state === 'ready') {
          if (previous.state === 'stalled') emit({ type: 'chain.advancing' })
          if (outage === undefined) return // the recovery that preceded this look has already told
          // The same chain back: what it holds is what was counted, but a call may have gone out unanswered.
          nonceManagers.resyncAll()
          outage = undefined
          runs++
          emit({ type: 'chain.reachable', previous: previous.state })
        } else {
          outage =
            verdict.state === 'reset'
              ? `the node at ${nodeUrl()} was reset (${verdict.why}): redeploying the contracts`
              : `contracts are missing on the node (${verdict.missing.join(', ')}): redeploying them`
          emit({ type: 'chain.recovering', reset: verdict.state === 'reset', missing: verdict.missing })
          try {
            const again = await redeploy()
            outage = undefined
            runs++
            emit({ type: 'chain.recovered', reset: verdict.state === 'reset', deployed: again.deployed })
          } catch (err) {
            // Left closed: the next look judges the node again and tries again.
            emit({ type: 'chain.error', error: err as Error })
            throw err
          }
        }
      },
    })
    chain.watch = () => watch.look()
    redeployAfterReset = async () => {
      await redeploy()
    }
    // The chain's own part of a stack snapshot: the watch held, the service's accounts' nonces and the clock read
    // again from the node once it went back.
    stack.register({
      name: 'chain',
      async hold() {
        stackHeld++
        return () => {
          stackHeld--
        }
      },
      capture: () => null,
      async restore() {
        nonceManagers.resyncAll()
        Object.assign(known, await readKnownNode(deployClient, chainId))
      },
      async reset() {
        Object.assign(known, await readKnownNode(deployClient, chainId))
      },
    })
    await clock.sync()
    chain.readCheckedAt = () => watch.checkedAt

    afterRestart = async () => {
      const again = await redeploy()
      if (again.deployed.length > 0)
        log.warn({ deployed: again.deployed }, 'contracts were redeployed after a restart')
      // A look that ran into the exit before the supervisor saw it found the node unreachable: it is back, whole.
      outage = undefined
    }
    watchStop = () => watch.stop()

    log.info(
      {
        rpcUrl: nodeUrl(),
        chainId,
        kind: chain.kind,
        ms: chain.startMs,
        deployed: result.deployed,
        missing: result.missing,
        mismatched: result.mismatched,
      },
      'chain ready',
    )
    return chain
  } catch (err) {
    await embedded?.stop().catch(() => {})
    node.close()
    throw err
  }
}
