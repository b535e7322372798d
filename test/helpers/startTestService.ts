import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { DEFAULT_CHAIN_ID, type ServiceConfigInput } from '../../src/main/service/config'
import { createService, type Service } from '../../src/main/service/createService'
import { copyChainTemplate } from './chainTemplate'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's chain template folder (test/helpers/chainTemplate.ts); absent in a project without this setup. */
    chainTemplate?: string
  }
}

export type TestService = Service & {
  baseUrl: string
  dataDir: string
  /** Closes the service and removes its data folder. */
  dispose: () => Promise<void>
}

export type TestServiceOptions = Partial<ServiceConfigInput> & {
  /**
   * A data folder that has never held a chain: the start deploys every contract itself. For tests of what a first
   * start does (its deployment, the files it creates); the others start from the run's deployed chain.
   */
  fresh?: boolean
}

/**
 * Starts the real service on 127.0.0.1 with a free port and a new data folder, which holds the run's deployed chain
 * (seedWithChainTemplate) unless `fresh` is set or the service gets no embedded chain of the default id.
 */
export async function startTestService({
  fresh = false,
  ...overrides
}: TestServiceOptions = {}): Promise<TestService> {
  let dataDir = overrides.dataDir
  const ownFolder = dataDir === undefined
  if (dataDir === undefined) {
    dataDir = await makeTestDataDir('opstation-test-')
    if (!fresh && usesDefaultEmbeddedChain(overrides)) await seedWithChainTemplate(dataDir)
  }
  // A start that fails (what some tests expect) stops what it started; the folder made for it goes with it.
  const service = await createService({ port: 0, logLevel: 'silent', ...overrides, dataDir }).catch(
    async (err: unknown) => {
      if (ownFolder) await rm(dataDir, { recursive: true, force: true })
      throw err
    },
  )
  return Object.assign(service, {
    baseUrl: service.info().dashboardUrl,
    dataDir,
    async dispose() {
      await service.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  })
}

/** A new empty temporary folder. */
export function makeTestDataDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix))
}

/**
 * True when `config` starts the embedded anvil of the default chain id, the chain the template holds (a chain named by
 * `chains`, or by the setup's `chains`, counts as the chain id option: contracts such as EntryPoint v0.8 hold their
 * chain's id).
 */
function usesDefaultEmbeddedChain(config: Partial<ServiceConfigInput>): boolean {
  const setupChains =
    typeof config.setup === 'object' && Array.isArray(config.setup.chains) ? config.setup.chains : undefined
  const listed = config.chains?.[0] ?? setupChains?.[0]
  if (listed !== undefined) {
    const spec =
      typeof listed === 'number'
        ? { chainId: listed }
        : (listed as { chainId?: number; forkUrl?: string; rpcUrl?: string })
    return spec.chainId === DEFAULT_CHAIN_ID && !spec.forkUrl && !spec.rpcUrl
  }
  return (
    !config.noChain &&
    config.rpcUrl === undefined &&
    config.forkUrl === undefined &&
    (config.chainId === undefined || config.chainId === DEFAULT_CHAIN_ID)
  )
}

/**
 * Copies the run's deployed chain (the integration projects' globalSetup builds it: test/integration/globalSetup.ts)
 * into `dataDir`, a new folder; returns false, leaving it empty, in a project without one.
 */
export async function seedWithChainTemplate(dataDir: string): Promise<boolean> {
  const template = inject('chainTemplate')
  if (!template) return false
  await copyChainTemplate(template, dataDir)
  return true
}

/** fetch() with JSON in and out, for driving the REST API the way any HTTP client would. */
export async function requestJson(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) }
  let body: string | undefined
  if (init.rawBody !== undefined) body = init.rawBody
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body)
    headers['content-type'] ??= 'application/json'
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {}
  return { status: res.status, body: parsed, headers: res.headers }
}
