import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import type { ChainStatus, ServiceInfo } from '../../shared/serviceInfo'
import { ethChainId } from './bundler/methods/eth_chainId'
import { parseServiceConfig, type ServiceConfig, type ServiceConfigInput } from './config'
import { StartupError } from './errors'
import { createMethodRegistry } from './jsonrpc/defineMethod'
import { findPackageRoot, readPackageVersion } from './packageRoot'
import { buildServer } from './server/buildServer'
import { ensureDefaultAccount } from './store/accounts.repo'
import { lockDataFolder } from './store/lockDataFolder'
import { openStore, type Store } from './store/openStore'

export type Service = {
  readonly config: ServiceConfig
  readonly store: Store
  readonly app: FastifyInstance
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
  const config = parseServiceConfig(input)
  const log = pino({ level: config.logLevel, base: { service: 'opstation' } }, pino.destination(2))
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 })
  const lock = lockDataFolder(config.dataDir)
  let app: FastifyInstance | undefined
  try {
    const store = await openStore({ dataDir: config.dataDir, log })
    await ensureDefaultAccount(store)
    const chainStatus: ChainStatus = { kind: 'none', state: 'none', addresses: null, missing: [] }
    const chainId = config.chainId
    const consoleDir = config.consoleDir ?? path.join(findPackageRoot(), 'out', 'renderer')
    const version = readPackageVersion()

    let baseUrl = ''
    const info = (): ServiceInfo => ({
      version,
      dashboardUrl: baseUrl,
      bundlerUrl: `${baseUrl}/api/v2/${chainId}/${store.data.accounts[0]?.bundlerKey ?? ''}`,
      paymasterUrlTemplate: `${baseUrl}/api/v1/${chainId}/{apiKey}`,
      consoleUrl: `${baseUrl}/console/`,
      chainId,
      rpcUrl: null,
      dataDir: config.dataDir,
      chain: chainStatus,
    })

    app = await buildServer({
      store,
      host: config.host,
      bodyLimit: config.bodyLimit,
      logger: log,
      consoleDir,
      bundlerMethods: createMethodRegistry([ethChainId]),
      paymasterMethods: createMethodRegistry([ethChainId]),
      getChainId: () => chainId,
      getSupportedChainIds: () => [chainId],
      getServiceInfo: info,
    })
    const address = await listen(app, config.host, config.port)
    baseUrl = `http://${formatHost(config.host)}:${address.port}`

    const server = app
    let closed = false
    return {
      config,
      store,
      app: server,
      info,
      authToken: () => store.data.accounts[0]?.authToken ?? '',
      async close() {
        if (closed) return
        closed = true
        try {
          await server.close()
          await store.flush()
        } finally {
          lock.release()
        }
      },
    }
  } catch (err) {
    await app?.close().catch(() => {})
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
    if (code === 'EACCES') throw new StartupError(`Not allowed to listen on ${host}:${port} (a port below 1024 needs privileges).`)
    throw err
  }
  const addr = app.server.address()
  if (!addr || typeof addr === 'string') throw new StartupError('The server did not report its port')
  return { port: addr.port }
}

function formatHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}
