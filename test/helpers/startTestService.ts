import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { ServiceConfigInput } from '../../src/main/service/config'
import { createService, type Service } from '../../src/main/service/createService'

export type TestService = Service & {
  baseUrl: string
  dataDir: string
  /** Closes the service and removes its data folder. */
  dispose: () => Promise<void>
}

/** Starts the real service on 127.0.0.1 with a free port and a fresh data folder. */
export async function startTestService(overrides: Partial<ServiceConfigInput> = {}): Promise<TestService> {
  const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'opstation-test-')))
  const service = await createService({ port: 0, logLevel: 'silent', ...overrides, dataDir })
  return Object.assign(service, {
    baseUrl: service.info().dashboardUrl,
    dataDir,
    async dispose() {
      await service.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  })
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
