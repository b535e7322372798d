import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
// @ts-expect-error: a plain .mjs script without types
import { buildConsoleIfStale } from '../../scripts/buildConsoleIfStale.mjs'
import { CHAIN_TEMPLATE_ENV, obtainChainTemplate } from '../helpers/chainTemplate'

/**
 * Builds the console when out/renderer is missing or older than src/renderer, checks Chromium, and builds the
 * deployed chain once for the run (test/helpers/chainTemplate.ts): the workers find it in the environment, and each
 * service the fixtures start begins from a copy. Returns the teardown that removes it.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const chromium = process.env.OPSTATION_CHROMIUM ?? '/usr/bin/chromium'
  if (!existsSync(chromium)) {
    throw new Error(`The console tests need Debian's Chromium at ${chromium}: apt-get install -y chromium`)
  }
  const root = path.resolve(import.meta.dirname, '../..')
  const before = existsSync(path.join(root, 'out/renderer/index.html'))
    ? statSync(path.join(root, 'out/renderer/index.html')).mtimeMs
    : 0
  ;(buildConsoleIfStale as () => void)()
  const index = path.join(root, 'out/renderer/index.html')
  if (!existsSync(index))
    throw new Error('The console build failed: out/renderer/index.html is missing (npm run build:renderer)')
  if (statSync(index).mtimeMs !== before) process.stderr.write('console built into out/renderer\n')
  const template = await obtainChainTemplate()
  process.env[CHAIN_TEMPLATE_ENV] = template.dir
  return template.remove
}
