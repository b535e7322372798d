import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { spawnCli } from './spawnCli'

/**
 * The deployed chain, built once per test run and copied into each fresh data folder: a service started on such a
 * folder loads the saved state (spawnAnvil.ts passes --load-state) and its deployment finds every contract there, so
 * it starts at the cost of a restart instead of deploying the plan and the account zoo again. Only the chain's keys
 * and state are copied: the store (opstation.json: account, tokens, dApps) is created on first start as before, and
 * the keys travel with the state, so the paymasters that follow them sit at the same addresses.
 */
export const CHAIN_TEMPLATE_FILES = ['chain/keys.json', 'chain/anvil-state.json'] as const

/** Where the global setups publish the template folder (Playwright's workers read it from the environment). */
export const CHAIN_TEMPLATE_ENV = 'OPSTATION_TEST_CHAIN_TEMPLATE'

export type ChainTemplate = { dir: string; remove: () => Promise<void> }

/**
 * `opstation serve` on a new temporary folder until it is ready, then stopped (SIGTERM: the service saves the
 * chain's state as it stops): the folder then holds what CHAIN_TEMPLATE_FILES names.
 */
export async function buildChainTemplate(): Promise<ChainTemplate> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'opstation-template-'))
  const remove = () => rm(dir, { recursive: true, force: true })
  try {
    const cli = await spawnCli(['--port', '0', '--data-dir', dir, '--log-level', 'warn'], {
      timeoutMs: 120_000,
      env: { ...process.env, FORCE_COLOR: '0' },
    })
    cli.child.kill('SIGTERM')
    const code = await cli.exited
    if (code !== 0) throw new Error(`the template service exited with ${code}; stderr:\n${cli.stderr()}`)
    const missing = CHAIN_TEMPLATE_FILES.filter((file) => !existsSync(path.join(dir, file)))
    if (missing.length > 0)
      throw new Error(`the template service left no ${missing.join(', ')}; stderr:\n${cli.stderr()}`)
    return { dir, remove }
  } catch (err) {
    await remove()
    throw err
  }
}

/**
 * The run's template: the one `npm test` built for all its runs (scripts/test.mjs names it in
 * OPSTATION_TEST_CHAIN_TEMPLATE and removes it at the end), else one built now, removed by the caller.
 */
export async function obtainChainTemplate(): Promise<ChainTemplate> {
  const shared = process.env[CHAIN_TEMPLATE_ENV]
  if (shared && CHAIN_TEMPLATE_FILES.every((file) => existsSync(path.join(shared, file))))
    return { dir: shared, remove: async () => {} }
  return buildChainTemplate()
}

/** Copies the template's chain keys and state into `dataDir` (a fresh folder), private to the user as the service keeps them. */
export async function copyChainTemplate(template: string, dataDir: string): Promise<void> {
  await mkdir(path.join(dataDir, 'chain'), { recursive: true, mode: 0o700 })
  for (const file of CHAIN_TEMPLATE_FILES) await copyFile(path.join(template, file), path.join(dataDir, file))
}
