#!/usr/bin/env node
// The `opstation` command. In an installed package (no src/) it runs the CLI built at pack time (dist/cli.js,
// scripts/buildPackage.mjs) as it is: nothing is compiled at run time and no build tool is loaded. In the repository
// it runs out/cli/opstation.cjs (with V8's code cache), rebuilt first when src/ changed, and falls back to the TypeScript sources through
// tsx if bundling is not possible (esbuild and tsx are dev dependencies).
// Under npm (`npx opstation serve`, an npm script) it stops when npm stops: npm's shell exits on a SIGTERM without
// passing it on, which would leave the service and its anvil running.
import { existsSync } from 'node:fs'
import { stopWhenParentExits } from './stopWhenParentExits.mjs'

stopWhenParentExits()

const inRepository = existsSync(new URL('../src/main/cliMain.ts', import.meta.url))

let entry = new URL(inRepository ? '../out/cli/opstation.cjs' : '../dist/cli.js', import.meta.url).href
if (!inRepository && !existsSync(new URL(entry))) {
  // A tarball made by a plain `npm pack` in the repository, whose .npmrc turns scripts (and so prepack) off.
  process.stderr.write(
    'opstation: this package holds no build (dist/cli.js): it was packed without its prepack step; in the ' +
      'repository, pack it with: npm run pack\n',
  )
  process.exit(1)
}
if (inRepository) {
  const { bundleCli, isCliBundleFresh } = await import('../scripts/bundleCli.mjs')
  try {
    if (!isCliBundleFresh()) await bundleCli()
  } catch (err) {
    process.stderr.write(
      `opstation: could not bundle the CLI (${err.message.split('\n')[0]}); running from source\n`,
    )
    const { register } = await import('tsx/esm/api')
    register()
    entry = new URL('../src/main/cliMain.ts', import.meta.url).href
  }
}
if (entry.endsWith('.cjs')) {
  // The repository's bundle, with V8's code cache (scripts/lib/requireWithCodeCache.cjs).
  const { createRequire } = await import('node:module')
  const { fileURLToPath } = await import('node:url')
  const { requireWithCodeCache } = createRequire(import.meta.url)('../scripts/lib/requireWithCodeCache.cjs')
  requireWithCodeCache(fileURLToPath(entry))
} else await import(entry)
