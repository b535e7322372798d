// Records the ERC-4337 bundler JSON-RPC specification the authors' test suite validates answers against
// (eth-infinitism/bundler-spec, the `spec` submodule of eth-infinitism/bundler-spec-tests at 17bd608: commit a247b5d,
// licence CC0-1.0) as one OpenRPC document, built as that repository's scripts/build.js builds it: the methods of
// src/eth/ and src/debug/, and the schemas of src/schemas/ as components. The spec suite's RPC tests
// (test/integration/specSuite/rpc/) check each answer's result against it.
//
//   node scripts/record-bundler-spec-openrpc.mjs <path of a git clone of eth-infinitism/bundler-spec>
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const COMMIT = 'a247b5de59a702063ea5b09d6136f119a061642b'
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const out = path.join(root, 'test', 'fixtures', 'bundlerSpec', 'openrpc.json')
// js-yaml comes with the build tools (electron-builder); only this recording script reads YAML.
const yaml = createRequire(import.meta.url)('js-yaml')

const repo = process.argv[2]
if (!repo) {
  process.stderr.write(
    'usage: node scripts/record-bundler-spec-openrpc.mjs <clone of eth-infinitism/bundler-spec>\n',
  )
  process.exit(1)
}
const git = (...args) => execFileSync('git', ['--git-dir', repo, ...args], { encoding: 'utf8' })
const read = (file) => yaml.load(git('show', `${COMMIT}:${file}`))
const list = (dir) =>
  git('ls-tree', '--name-only', `${COMMIT}:${dir}`)
    .split('\n')
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => `${dir}/${name}`)

const methods = [...list('src/eth'), ...list('src/debug')].flatMap(read)
const schemas = Object.assign({}, ...list('src/schemas').map(read))
const document = {
  openrpc: '1.2.4',
  info: {
    title: 'Ethereum EIP-4337 bundler JSON-RPC Specification',
    description: `Recorded by scripts/record-bundler-spec-openrpc.mjs from https://github.com/eth-infinitism/bundler-spec at ${COMMIT}`,
    license: { name: 'CC0-1.0', url: 'https://creativecommons.org/publicdomain/zero/1.0/legalcode' },
    version: COMMIT,
  },
  methods,
  components: { schemas },
}
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`)
process.stdout.write(
  `${path.relative(root, out)}: ${methods.length} methods, ${Object.keys(schemas).length} schemas\n`,
)
