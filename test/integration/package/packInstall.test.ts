import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readReadmeCodeBlocks } from '../../helpers/readmeCodeBlocks'
import { runCommand } from '../../helpers/runCommand'
import { createSnippetProject, readImportedPackages } from '../../helpers/snippetProject'
import {
  cloneRepository,
  createPackedProject,
  type FreshClone,
  findProcessesMentioning,
  measureInstalledPackage,
  type PackedTarball,
  packOpstation,
  readJsonLine,
  runInProject,
  type ServeProcess,
  startServe,
  waitForNoProcessMentioning,
} from './packedProject'

/**
 * The installable package, end to end: a fresh clone of the repository (as it is now, without its build), where a
 * plain `npm pack` fails naming `npm run pack` (.npmrc turns scripts, and so the prepack build, off), and
 * `npm run pack` builds and packs; then a fresh project outside the repository installs the tarball with npm and uses it as a user would: the `opstation` command, `startOpstation` from
 * 'opstation', the prool instance from 'opstation/prool', a setup file, the README's vitest example, and the
 * shipped types. Slow (a build and an npm install): its own vitest project, `package`.
 *
 * OPSTATION_TEST_NODE=/path/to/node runs the project's commands with another Node (e.g. 22) first on PATH.
 */

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..')
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))

/** The README's per-test pattern with prool: run in a folder of their own (their vitest config is not the other's). */
const PER_TEST_WITH_PROOL = ['vitest.pool.config.ts', 'poolSetup.ts', 'pooled.test.ts']

/** README snippets the tests above run inside the packed project itself (they need its vitest or prool). */

const RUN_IN_THE_PACKED_PROJECT = new Set([
  'vitest.config.ts',
  'globalSetup.ts',
  'sponsored.test.ts',
  'snapshots.test.ts',
  'pool.mjs',
  ...PER_TEST_WITH_PROOL,
])

/** The README's snippets of the section "From a test suite", by the file each names. */
function readReadmeExamples(): Map<string, string> {
  const blocks = readReadmeCodeBlocks().filter(
    (block) => block.section === 'From a test suite (programmatic API)',
  )
  return new Map(blocks.flatMap((block) => (block.file ? [[block.file, block.code] as const] : [])))
}

let temp: string
let project: string
let clone: FreshClone
let tarball: PackedTarball
let env: NodeJS.ProcessEnv

/** The environment of the project's commands: no npm or vitest variables of this run, temp files under `temp`. */
function projectEnv(): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST|NODE_OPTIONS$)/i.test(name)),
  )
  const node = process.env.OPSTATION_TEST_NODE
  const tmp = path.join(temp, 'tmp')
  mkdirSync(tmp, { recursive: true })
  return {
    ...clean,
    TMPDIR: tmp,
    PATH: node ? `${path.dirname(node)}${path.delimiter}${clean.PATH ?? ''}` : clean.PATH,
  }
}

/** Stops an `npx opstation serve` by a SIGTERM to npx alone (as a process manager does) and waits for its exit. */
async function stopServe(serve: ServeProcess, dataDir: string): Promise<number[]> {
  process.kill(serve.child.pid!, 'SIGTERM')
  await serve.exited
  const left = await waitForNoProcessMentioning(dataDir)
  for (const pid of left) process.kill(pid, 'SIGKILL')
  return left
}

describe('the npm package (npm pack, installed into a fresh project)', () => {
  beforeAll(async () => {
    temp = mkdtempSync(path.join(os.tmpdir(), 'opstation-package-'))
    project = path.join(temp, 'project')
    mkdirSync(project)
    env = projectEnv()
    clone = await cloneRepository(path.join(temp, 'clone'), env)
    tarball = await packOpstation(clone.dir, temp, env)
    const { installMs } = await createPackedProject(project, tarball.file, env)
    const node = execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim()
    const installed = measureInstalledPackage(project, 'opstation')
    console.log(
      [
        `node ${node}`,
        `npm run pack (the prepack build, then npm pack) ${(tarball.packMs / 1000).toFixed(1)} s`,
        `tarball ${(tarball.size / 1e6).toFixed(2)} MB, ${(tarball.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${tarball.files.length} files`,
        `npm install (tarball, viem, permissionless, prool, vitest) ${(installMs / 1000).toFixed(1)} s`,
        `installed opstation ${(installed.ownBytes / 1e6).toFixed(1)} MB; with its ${installed.packages - 1} runtime packages ${(installed.totalBytes / 1e6).toFixed(1)} MB`,
      ].join('\n'),
    )
  }, 600_000)

  afterAll(async () => {
    if (!temp) return
    const left = await waitForNoProcessMentioning(temp, 5_000)
    for (const pid of left) process.kill(pid, 'SIGKILL')
    rmSync(temp, { recursive: true, force: true, maxRetries: 3 })
    expect(left).toEqual([])
  })

  it('in a fresh clone, a plain `npm pack` (scripts off) packs nothing and fails naming `npm run pack`', () => {
    expect(clone.plainPack.status).not.toBe(0)
    expect(clone.plainPack.stderr).toContain('use npm run pack (it builds the package first)')
    expect(clone.plainPack.tarballs).toEqual([])
  })

  it('holds what runs (the built CLI, API and types, the console), its licence and third-party notices, and the Solidity of its own contracts; no other sources, maps or build tools', () => {
    const allowed =
      /^(README\.md|LICENSE|THIRD_PARTY_NOTICES\.md|licenses\/[\w.-]+\.txt|contracts\/[\w/]+\.sol|package\.json|bin\/opstation\.js|bin\/stopWhenParentExits\.mjs|dist\/.+|out\/renderer\/.+)$/
    expect(tarball.files.filter((file) => !allowed.test(file))).toEqual([])
    expect(tarball.files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'THIRD_PARTY_NOTICES.md',
        'licenses/GPL-3.0.txt',
        'licenses/LGPL-3.0.txt',
        'licenses/Apache-2.0.txt',
        'contracts/BiconomyTokenPaymaster.sol',
        'contracts/packed/OpstationVerifyingPaymaster.sol',
        'dist/cli.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/types.d.ts',
        'dist/prool.js',
        'dist/prool.d.ts',
        'dist/setup.schema.json',
        'dist/docs/openapi.json',
        'dist/docs/openrpc.json',
        'dist/docs/index.html',
        'out/renderer/index.html',
      ]),
    )
    const installedDir = path.join(project, 'node_modules', 'opstation')
    expect(readFileSync(path.join(installedDir, 'THIRD_PARTY_NOTICES.md'), 'utf8')).toBe(
      readFileSync(path.join(repoRoot, 'THIRD_PARTY_NOTICES.md'), 'utf8'),
    )
    expect(readFileSync(path.join(installedDir, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/)
    // The npm packages the console's real build bundles (its source maps, left in the clone) are all in the notices.
    const notices = readFileSync(path.join(installedDir, 'THIRD_PARTY_NOTICES.md'), 'utf8')
    const consoleNotices = notices.slice(notices.indexOf('## npm packages in the console'))
    const assets = path.join(clone.dir, 'out', 'renderer', 'assets')
    const bundled = new Set<string>()
    for (const map of readdirSync(assets).filter((file) => file.endsWith('.map'))) {
      for (const source of JSON.parse(readFileSync(path.join(assets, map), 'utf8')).sources as string[]) {
        const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(
          source.slice(source.lastIndexOf('node_modules/')),
        )
        if (match) bundled.add(match[1]!)
      }
    }
    expect(bundled.size).toBeGreaterThan(0)
    for (const name of bundled) expect(consoleNotices, name).toContain(`| \`${name}\` |`)
    expect(tarball.files.filter((file) => /\.map$|(?<!\.d)\.ts$/.test(file))).toEqual([])
    const installed = JSON.parse(
      readFileSync(path.join(project, 'node_modules', 'opstation', 'package.json'), 'utf8'),
    )
    expect(Object.keys(installed.dependencies)).not.toContain('tsx')
    expect(Object.keys(installed.dependencies)).not.toContain('esbuild')
    expect(installed.peerDependenciesMeta).toEqual({ prool: { optional: true } })
  })

  it('`npx opstation --version` and `--help` work', async () => {
    const version = await runInProject(project, env, 'npx', ['opstation', '--version'])
    expect(version.stdout.trim()).toBe(manifest.version)
    const help = await runInProject(project, env, 'npx', ['opstation', '--help'])
    expect(help.stdout).toContain('Usage: opstation serve [options]')
  })

  it('`npx opstation serve --port 0` serves the console and sponsors a UserOperation; a SIGTERM to npx stops it all', async () => {
    const dataDir = path.join(temp, 'serve-data')
    const serve = await startServe(project, env, ['--port', '0', '--data-dir', dataDir])
    let left: number[] = []
    try {
      expect(serve.ready).toMatchObject({ version: manifest.version, chainId: 31337 })
      expect((await fetch(serve.ready.consoleUrl)).status).toBe(200)
      const sponsored = readJsonLine(
        (await runInProject(project, env, 'node', ['sponsorThroughServe.mjs', JSON.stringify(serve.ready)]))
          .stdout,
      )
      expect(sponsored).toMatchObject({ success: true })
    } finally {
      left = await stopServe(serve, dataDir)
    }
    expect(left).toEqual([])
  })

  it("`startOpstation` from 'opstation': two instances, a dApp from createDapp sponsors a UserOperation, stop leaves nothing", async () => {
    const result = readJsonLine((await runInProject(project, env, 'node', ['useStartOpstation.mjs'])).stdout)
    expect(result).toMatchObject({
      success: true,
      chainId: 31337,
      distinct: true,
      console: 200,
      dataDirsLeft: 0,
    })
    expect(result.paymaster).toBe(result.verifyingPaymasterV07)
  })

  it("`opstation/prool`: prool's Server pools two Opstations; one sponsors a UserOperation at its known URLs", async () => {
    const result = readJsonLine((await runInProject(project, env, 'node', ['useProol.mjs'])).stdout)
    expect(result.urls[0]).not.toBe(result.urls[1])
    expect(result).toMatchObject({
      sponsored: { success: true },
      minedOn: [true, false],
      stillServing: [false, false],
      single: { status: 'started', bundlerUnderUrl: true },
      stoppedHandle: null,
    })
  })

  it('applies a setup file twice (`--setup`): the second start on the same data folder changes nothing', async () => {
    const dataDir = path.join(temp, 'setup-data')
    const apiKey = 'SetupPack.3f0e1d2c-4b5a-4978-8a6b-5c4d3e2f1a0b'
    const funded = '0x00000000000000000000000000000000000f0e1d'
    writeFileSync(
      path.join(project, 'setup.json'),
      JSON.stringify({
        $schema: './node_modules/opstation/dist/setup.schema.json',
        version: 1,
        dapps: [{ name: 'from-setup', apiKey }],
        accounts: [{ address: funded, balanceEth: '3' }],
      }),
    )
    const readState = async (ready: Record<string, any>) => {
      const listed = await fetch(`${ready.dashboardUrl}/api/v2/public/sdk/paymaster`, {
        headers: { authToken: ready.authToken },
      }).then((response) => response.json() as Promise<{ data: { name: string; apiKey: string }[] }>)
      const balance = await fetch(ready.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [funded, 'latest'] }),
      }).then((response) => response.json() as Promise<{ result: string }>)
      return {
        dapps: listed.data.map(({ name, apiKey }) => ({
          name,
          apiKey,
        })),
        balance: BigInt(balance.result),
      }
    }
    const states = []
    for (let start = 0; start < 2; start++) {
      const serve = await startServe(project, env, [
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--setup',
        'setup.json',
      ])
      try {
        states.push(await readState(serve.ready))
      } finally {
        expect(await stopServe(serve, dataDir)).toEqual([])
      }
    }
    expect(states[0]).toEqual({ dapps: [{ name: 'from-setup', apiKey }], balance: 3n * 10n ** 18n })
    expect(states[1]).toEqual(states[0])
  })

  it("the README's vitest globalSetup example runs as written", async () => {
    const examples = readReadmeExamples()
    expect([...examples.keys()]).toEqual(
      expect.arrayContaining([
        'vitest.config.ts',
        'globalSetup.ts',
        'sponsored.test.ts',
        'snapshots.test.ts',
      ]),
    )
    for (const [file, code] of examples)
      if (!PER_TEST_WITH_PROOL.includes(file)) writeFileSync(path.join(project, file), code)
    const { FORCE_COLOR: _, ...plain } = env
    const run = await runInProject(project, { ...plain, NO_COLOR: '1' }, 'npx', [
      'vitest',
      'run',
      '--config',
      'vitest.config.ts',
    ])
    expect(run.stdout).toMatch(/Tests\s+3 passed/)
  })

  it("the README's per-test pattern with prool runs as written (a worker's Opstation snapshot and reverted)", async () => {
    const examples = readReadmeExamples()
    const folder = path.join(project, 'pooled')
    mkdirSync(folder, { recursive: true })
    for (const file of PER_TEST_WITH_PROOL) {
      expect(examples.has(file), file).toBe(true)
      writeFileSync(path.join(folder, file), examples.get(file)!)
    }
    const { FORCE_COLOR: _, ...plain } = env
    const run = await runInProject(folder, { ...plain, NO_COLOR: '1' }, 'npx', [
      'vitest',
      'run',
      '--config',
      'vitest.pool.config.ts',
    ])
    expect(run.stdout).toMatch(/Tests\s+2 passed/)
  })

  it("the README's prool example runs as written", async () => {
    const examples = readReadmeExamples()
    expect(examples.has('pool.mjs')).toBe(true)
    writeFileSync(path.join(project, 'pool.mjs'), examples.get('pool.mjs')!)
    const run = await runInProject(project, env, 'node', ['pool.mjs'])
    expect(run.stdout).toMatch(/entry points: .*0x0000000071727De22E5E9d8BAf0edAc6f37da032/)
  })

  it('every other README snippet that names a script runs as written, in a fresh project holding only what it imports', async () => {
    const snippets = readReadmeCodeBlocks().filter(
      (block) => block.file && /\.m?js$/.test(block.file) && !RUN_IN_THE_PACKED_PROJECT.has(block.file),
    )
    expect(snippets.map((block) => block.file)).toEqual(
      expect.arrayContaining(['quickstart.mjs', 'biconomy.mjs', 'withSetup.mjs']),
    )
    // The setup file a snippet starts with: the README's example (its only json block).
    const setupFile = readReadmeCodeBlocks().find((block) => block.lang === 'json')!.code
    for (const snippet of snippets) {
      const packages = readImportedPackages(snippet.code)
      const snippetProject = await createSnippetProject(packages, {
        opstation: path.join(project, 'node_modules', 'opstation'),
      })
      writeFileSync(path.join(snippetProject.dir, 'setup.json'), setupFile)
      const run = await snippetProject.run(snippet.file!, snippet.code, env)
      expect(run.stdout, `README.md:${snippet.line} ${snippet.file}`).not.toMatch(/^false\b/m)
    }
  })

  it('ships types: a TypeScript file using both entries type-checks (nodenext and bundler resolution)', async () => {
    writeFileSync(
      path.join(project, 'checkTypes.ts'),
      `import { type Opstation, type StartOpstationOptions, startOpstation } from 'opstation'
import { type OpstationInstance, opstation } from 'opstation/prool'

const options: StartOpstationOptions = { port: 0, bundlingMode: 'manual' }
// @ts-expect-error: not a bundling mode
const wrong: StartOpstationOptions = { bundlingMode: 'sometimes' }

export async function useApi(): Promise<string> {
  const op: Opstation = await startOpstation(options)
  const dapp = await op.createDapp({ name: 'typed' })
  // @ts-expect-error: the chain id is a number
  const chainId: string = op.chainId
  return dapp.paymasterUrl + op.bundlerUrl + String(op.addresses?.entryPointV07) + chainId + String(wrong)
}

export async function useProol(): Promise<string | undefined> {
  const instance: OpstationInstance = opstation({ unsafe: true })
  await instance.start()
  return instance._internal.opstation?.bundlerUrl
}
`,
    )
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc')
    for (const resolution of ['nodenext', 'bundler']) {
      const config = `tsconfig.${resolution}.json`
      writeFileSync(
        path.join(project, config),
        JSON.stringify({
          compilerOptions: {
            module: resolution === 'nodenext' ? 'nodenext' : 'esnext',
            moduleResolution: resolution,
            target: 'es2022',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          files: ['checkTypes.ts'],
        }),
      )
      await runCommand(process.execPath, [tsc, '-p', config], {
        cwd: project,
        env,
        what: `tsc (${resolution})`,
      })
    }
  })

  it('leaves nothing running', async () => {
    expect(await waitForNoProcessMentioning(temp, 10_000)).toEqual([])
    expect(findProcessesMentioning(project)).toEqual([])
  })
})
