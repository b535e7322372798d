#!/usr/bin/env node
// Headless entry. Runs the bundled CLI (out/cli/opstation.mjs), rebuilding it first when src/ changed;
// falls back to running the TypeScript sources through tsx if bundling is not possible.
import { bundleCli, CLI_BUNDLE, isCliBundleFresh } from '../scripts/bundleCli.mjs'

let entry = CLI_BUNDLE
try {
  if (!isCliBundleFresh()) await bundleCli()
} catch (err) {
  process.stderr.write(
    `opstation: could not bundle the CLI (${err.message.split('\n')[0]}); running from source\n`,
  )
  const { register } = await import('tsx/esm/api')
  register()
  entry = '../src/main/cliMain.ts'
}
await import(entry === CLI_BUNDLE ? new URL('../out/cli/opstation.mjs', import.meta.url).href : entry)
