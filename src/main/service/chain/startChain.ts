import { join } from 'node:path'
import { createPublicClient, createWalletClient, defineChain } from 'viem'
import { ChainError } from '../errors'
import { silentLogger } from '../log'
import { type EmbeddedNode, startEmbeddedNode } from './anvil/startEmbeddedNode'
import { defaults } from './constants'
import { deployContracts } from './deploy/deployContracts'
import { openKeyStore } from './keys/openKeyStore'
import { createNodeTransport } from './node/createNodeTransport'
import { detectNodeCapabilities } from './node/detectNodeCapabilities'
import { registerNodeRequest, requestRpc } from './node/requestRpc'
import type { Chain, ChainConfig, ChainEvent, ChainEventListener } from './types'

/**
 * Starts the chain: an embedded anvil (default) or an external node (`rpcUrl`), then deploys or verifies every
 * contract (idempotent) and returns viem clients, keys and addresses.
 */
export async function startChain(config: ChainConfig): Promise<Chain> {
  const started = performance.now()
  const log = config.log ?? silentLogger
  const listeners = new Set<ChainEventListener>()
  const emit = (event: ChainEvent) => {
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
      dataDir: config.dataDir,
      chainId: config.chainId ?? defaults.chainId,
      anvilPath: config.anvilPath,
      log,
      emit,
      afterRestart: () => afterRestart(),
    })
  }
  const rpcUrl = config.rpcUrl ?? (embedded as EmbeddedNode).rpcUrl
  // Every client of the chain (bundler, paymaster, deployment, console) shares this transport.
  const node = createNodeTransport({ rpcUrl, ipcPath: embedded?.ipcPath })

  try {
    const { transport } = node
    let chainId: number
    try {
      chainId = await createPublicClient({ transport }).getChainId()
    } catch (err) {
      throw new ChainError(`The node at ${rpcUrl} does not answer eth_chainId`, { cause: err })
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
      rpcUrls: { default: { http: [rpcUrl] } },
    })
    const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 100 })
    registerNodeRequest(publicClient, node.request)
    const capabilities = await detectNodeCapabilities(publicClient, chainId)
    const keys = await openKeyStore({
      path: join(config.dataDir, 'chain', 'keys.json'),
      chainId,
      isDev: capabilities.isDev,
      executorPrivateKey: config.executorPrivateKey,
      paymasterSignerPrivateKey: config.paymasterSignerPrivateKey,
    })
    const executorClient = createWalletClient({
      account: keys.executor,
      chain: viemChain,
      transport,
      pollingInterval: 100,
    })

    const deploy = () =>
      deployContracts({
        publicClient,
        executor: executorClient,
        capabilities,
        signer: keys.paymasterSigner.address,
        repairMismatches: embedded !== undefined,
        log,
      })
    const applyMiningMode = async () => {
      if (embedded && config.blockTime)
        await requestRpc(publicClient, 'evm_setIntervalMining', [config.blockTime])
    }

    const result = await deploy()
    await applyMiningMode()

    const chain: Chain = {
      chainId,
      rpcUrl,
      kind: embedded ? 'embedded' : 'external',
      capabilities,
      anvil: embedded
        ? { pid: embedded.pid, binary: embedded.binary, statePath: embedded.statePath, port: embedded.port }
        : null,
      publicClient,
      executor: { address: keys.executor.address, client: executorClient, account: keys.executor },
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
      stop: async () => {
        listeners.clear()
        await embedded?.stop()
        node.close()
      },
    }

    afterRestart = async () => {
      const again = await deploy()
      chain.missing.splice(0, chain.missing.length, ...again.missing)
      chain.mismatched.splice(0, chain.mismatched.length, ...again.mismatched)
      chain.deployed.splice(0, chain.deployed.length, ...again.deployed)
      if (again.deployed.length > 0)
        log.warn({ deployed: again.deployed }, 'contracts were redeployed after a restart')
      await applyMiningMode()
    }

    log.info(
      {
        rpcUrl,
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
