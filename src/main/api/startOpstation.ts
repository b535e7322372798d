import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { defineChain, type Hex, numberToHex } from 'viem'
import type { Explanation } from '../../shared/api/explanation.js'
import { createService } from '../service/createService'
import type { Opstation, OpstationDapp, StartOpstationOptions } from './types.js'

/**
 * Starts Opstation in this process (the same service `opstation serve` runs: bundler, paymaster, dashboard API, console
 * and an embedded anvil) and resolves once it serves. For test runners: `port: 0` and a fresh data folder by default,
 * so instances run side by side.
 */
export async function startOpstation(options: StartOpstationOptions = {}): Promise<Opstation> {
  const { dataDir: givenDataDir, ...rest } = options
  const dataDir = givenDataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'opstation-')))
  let service: Awaited<ReturnType<typeof createService>>
  try {
    service = await createService({ port: 0, logLevel: 'silent', ...rest, dataDir })
  } catch (err) {
    if (!givenDataDir) await rm(dataDir, { recursive: true, force: true })
    throw err
  }
  const info = service.info()
  const paymasterUrlOn = (template: string, apiKey: string) =>
    template.replace('{apiKey}', encodeURIComponent(apiKey))
  const paymasterUrl = (apiKey: string) => paymasterUrlOn(info.paymasterUrlTemplate, apiKey)
  let stopping: Promise<void> | undefined
  /** One call to the chain as the chain URL takes it (snapshots and time move the whole stack). */
  const callChain = (method: string, params: unknown[] = []) => {
    if (!service.chain) throw new Error(`${method}: no chain is running (started with noChain)`)
    return service.chain.request(method, params)
  }
  return {
    dashboardUrl: info.dashboardUrl,
    bundlerUrl: info.bundlerUrl,
    paymasterUrlTemplate: info.paymasterUrlTemplate,
    consoleUrl: info.consoleUrl,
    rpcUrl: info.rpcUrl,
    chainId: info.chainId,
    chains: info.chains.map((chain) => ({
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      bundlerUrl: chain.bundlerUrl,
      paymasterUrlTemplate: chain.paymasterUrlTemplate,
      chain: defineViemChain(chain.chainId, chain.rpcUrl),
    })),
    chain: defineViemChain(info.chainId, info.rpcUrl),
    authToken: service.authToken(),
    addresses: service.chain?.addresses ?? null,
    dataDir,
    paymasterUrl,
    async createDapp({
      name = `dapp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
      chainId = info.chainId,
    } = {}) {
      const response = await fetch(`${info.dashboardUrl}/api/v2/public/sdk/paymaster`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authToken: service.authToken() },
        body: JSON.stringify({ name, type: 'HYBRID', chainId, version: '1.1.0' }),
      })
      const body = (await response.json()) as {
        statusCode: number
        message: string
        data?: { apiKey: string }
      }
      if (!response.ok || !body.data) throw new Error(`createDapp: ${body.message} (HTTP ${response.status})`)
      const template =
        info.chains.find((chain) => chain.chainId === chainId)?.paymasterUrlTemplate ??
        info.paymasterUrlTemplate
      const dapp: OpstationDapp = {
        name,
        apiKey: body.data.apiKey,
        paymasterUrl: paymasterUrlOn(template, body.data.apiKey),
        chainId,
      }
      return dapp
    },
    snapshot: async () => (await callChain('evm_snapshot')) as Hex,
    async revert(id) {
      if ((await callChain('evm_revert', [id])) !== true)
        throw new Error(`revert: snapshot ${id} is unknown or was used up by an earlier revert`)
    },
    async increaseTime(seconds) {
      await callChain('evm_increaseTime', [numberToHex(seconds)])
    },
    async mine(blocks = 1) {
      await callChain('anvil_mine', [numberToHex(blocks)])
    },
    async reset() {
      await callChain('anvil_reset', [])
    },
    async explain(userOpHash) {
      const response = await fetch(info.bundlerUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'opstation_traceUserOperation',
          params: [userOpHash],
        }),
      })
      const body = (await response.json()) as {
        result?: Explanation
        error?: { code: number; message: string }
      }
      if (!body.result)
        throw new Error(`explain: ${body.error?.message ?? `HTTP ${response.status}`} (${body.error?.code})`)
      return body.result
    },
    stop() {
      stopping ??= (async () => {
        await service.close()
        if (!givenDataDir) await rm(dataDir, { recursive: true, force: true })
      })()
      return stopping
    },
  }
}

/** A chain of the service for viem. */
function defineViemChain(chainId: number, rpcUrl: string | null) {
  return defineChain({
    id: chainId,
    name: `Opstation ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: rpcUrl ? [rpcUrl] : [] } },
  })
}
