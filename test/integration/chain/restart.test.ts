import { readdir, readFile, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { type Address, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  type Chain,
  type ChainEvent,
  createGasTank,
  fundEth,
  getGasTankBalance,
  mintToken,
  startChain,
  testTokenAbi,
} from '../../../src/main/service/chain'
import { isPortFree } from '../../../src/main/service/chain/anvil/findFreePort'
import { resolveAnvilBinary } from '../../../src/main/service/chain/anvil/resolveAnvilBinary'
import { testTokenArtifact } from '../../../src/main/service/chain/artifacts'
import { createHttpRequest } from '../../../src/main/service/chain/node/createHttpRequest'
import { isProcessAlive } from '../../../src/main/service/util/process/isProcessAlive'
import { readSavedChainHead } from '../../helpers/savedChainHead'
import { seedWithChainTemplate } from '../../helpers/startTestService'
import { waitFor } from '../bundler/bundlerTestKit'
import { makeDataDir, withEmbeddedChain } from './userOpHelpers'

/** The chain's events from now on, and the moment of its next restart. */
function watchForRestart(chain: Chain): { events: ChainEvent[]; restarted: Promise<void> } {
  const events: ChainEvent[] = []
  let resolve = () => {}
  const restarted = new Promise<void>((r) => {
    resolve = r
  })
  const unsubscribe = chain.onEvent((event) => {
    events.push(event)
    if (event.type !== 'chain.restarted') return
    unsubscribe()
    resolve()
  })
  return { events, restarted }
}

type KillRound = { events: ChainEvent[]; pidBefore: number; portBefore: number; urlBefore: string }

/**
 * SIGKILLs the chain's anvil and waits for its restart. With `squat`, a server of the test binds anvil's port in the
 * moment between (the supervisor waits 250 ms before it restarts), and holds it until `release`. Other test processes
 * start anvils on the same few browser-blocked ports (findAnvilPort.ts) and may take the freed port first: a round
 * they spoil (the squatter could not bind, or without `squat` the chain moved because another process holds its port)
 * is run again, up to three times, so that what the test asserts is the supervisor's doing.
 */
async function killAnvilAndWaitForRestart(
  chain: Chain,
  { squat }: { squat: boolean },
): Promise<KillRound & { release: () => void }> {
  for (let round = 1; ; round++) {
    const { events, restarted } = watchForRestart(chain)
    const urlBefore = chain.rpcUrl
    const portBefore = chain.anvil?.port
    const pidBefore = chain.anvil?.pid()
    if (!portBefore || !pidBefore) throw new Error('no embedded anvil')
    process.kill(pidBefore, 'SIGKILL')
    await waitFor(async () => (isProcessAlive(pidBefore) ? null : true), 10_000, 5)
    const squatter = squat ? await listenOn(portBefore) : null
    await restarted
    const spoiled = squat ? !squatter : chain.anvil?.port !== portBefore && !(await isPortFree(portBefore))
    if (!spoiled || round === 3)
      return { events, pidBefore, portBefore, urlBefore, release: () => squatter?.close() }
    squatter?.close()
  }
}

/** A server listening on `port`, or null when another process holds it. */
async function listenOn(port: number): Promise<Server | null> {
  const server = createServer()
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' ? resolve(null) : reject(err),
    )
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

/** Waits until the chain's saved state holds block `number`. */
async function waitForSavedBlock(chain: Chain, number: bigint): Promise<void> {
  const statePath = chain.anvil?.statePath
  if (!statePath) throw new Error('no embedded anvil')
  await waitFor(async () => ((await readSavedChainHead(statePath)) >= number ? true : null), 45_000, 50)
}

describe('embedded anvil supervision', () => {
  let chain: Chain
  withEmbeddedChain((started) => {
    chain = started
  })

  it('restarts anvil after a SIGKILL on the same URL, with balances, tokens, gas tanks and deployed contracts kept', async () => {
    const funded = privateKeyToAccount(generatePrivateKey()).address
    await fundEth(chain, funded, parseEther('7'))
    const token = chain.addresses.tokens[0]
    if (!token) throw new Error('no token')
    await mintToken(chain, token.address, funded, parseUnits('42', 6))
    const { paymasterId } = await createGasTank(chain, { fundWei: parseEther('3') })
    const deployHash = await chain.executor.client.deployContract({
      abi: testTokenArtifact.abi,
      bytecode: testTokenArtifact.bytecode,
      args: ['Restart Token', 'RST', 9],
    })
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: deployHash })
    const deployed = receipt.contractAddress
    if (!deployed) throw new Error('no contract address')
    // The state is saved within moments of each change (startStateSaver): wait until the saved state holds the
    // deploy's block, the last change, before the kill.
    await waitForSavedBlock(chain, receipt.blockNumber)

    const { events, pidBefore, urlBefore } = await killAnvilAndWaitForRestart(chain, { squat: false })

    expect(events.map((e) => e.type)).toEqual(['chain.exited', 'chain.restarted'])
    expect(events[0]).toMatchObject({ type: 'chain.exited', signal: 'SIGKILL' })
    expect(chain.anvil?.pid()).not.toBe(pidBefore)
    expect(chain.rpcUrl).toBe(urlBefore)
    expect(chain.deployed).toEqual([])
    expect(chain.missing).toEqual([])
    expect(await chain.publicClient.getBalance({ address: funded })).toBe(parseEther('7'))
    expect(
      await chain.publicClient.readContract({
        address: token.address,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [funded],
      }),
    ).toBe(parseUnits('42', 6))
    expect(await getGasTankBalance(chain, paymasterId, '0.6')).toBe(parseEther('3'))
    expect(
      await chain.publicClient.readContract({
        address: deployed,
        abi: testTokenAbi,
        functionName: 'decimals',
      }),
    ).toBe(9)
  })

  it('restarts anvil on another port, with its state, and the chain and its URL follow', async () => {
    const funded = privateKeyToAccount(generatePrivateKey()).address
    // Saved or not yet, the write is in the journal, which the restarted anvil gets.
    await fundEth(chain, funded, parseEther('5'))
    const { events, portBefore, urlBefore, release } = await killAnvilAndWaitForRestart(chain, {
      squat: true,
    })
    try {
      expect(events.map((e) => e.type)).toEqual(['chain.exited', 'chain.restarted'])
      expect(chain.anvil?.port).not.toBe(portBefore)
      expect(chain.rpcUrl).not.toBe(urlBefore)
      expect(chain.rpcUrl).toBe(`http://127.0.0.1:${chain.anvil?.port}`)
      expect(events[1]).toMatchObject({ type: 'chain.restarted', rpcUrl: chain.rpcUrl })
      expect(await chain.publicClient.getBalance({ address: funded })).toBe(parseEther('5'))
      await fundEth(chain, funded, parseEther('1'))
      expect(await chain.publicClient.getBalance({ address: funded })).toBe(parseEther('6'))
      // anvil's own HTTP answers at the new URL, for the same chain.
      // (node:http: fetch refuses the browser-blocked ports anvil listens on)
      const overHttp = createHttpRequest(chain.rpcUrl)
      try {
        expect(Number(await overHttp('eth_chainId', []))).toBe(chain.chainId)
      } finally {
        overHttp.close()
      }
    } finally {
      release()
    }
  })
})

/**
 * A chain in `dir` (from the run's template) with `amount` sent to a new address, started again (which keeps the state
 * it loaded as the last good copy) and stopped; then its state file is cut off, as a hard kill while dumping leaves it.
 * Returns the funded address.
 */
async function cutOffStateAfterAGoodStart(dir: string, amount: bigint): Promise<Address> {
  await seedWithChainTemplate(dir)
  const first = await startChain({ dataDir: dir })
  const funded = privateKeyToAccount(generatePrivateKey()).address
  await fundEth(first, funded, amount)
  await first.stop()
  const second = await startChain({ dataDir: dir })
  const statePath = second.anvil?.statePath
  await second.stop()
  if (!statePath) throw new Error('no state path')
  await writeFile(statePath, '{"block": {"number": "0x')
  return funded
}

describe('embedded anvil state file recovery', () => {
  it('keeps the state file where it is when anvil fails to start for another reason than its state', async () => {
    const dataDir = await makeDataDir()
    try {
      await seedWithChainTemplate(dataDir.dir)
      const first = await startChain({ dataDir: dataDir.dir })
      const funded = privateKeyToAccount(generatePrivateKey()).address
      await fundEth(first, funded, parseEther('2'))
      const statePath = first.anvil?.statePath
      await first.stop()
      if (!statePath) throw new Error('no state path')
      const saved = await readFile(statePath, 'utf8')

      // A binary that exits at once (as a broken or foreign anvil would): the start fails with its reason.
      await expect(startChain({ dataDir: dataDir.dir, anvilPath: '/bin/false' })).rejects.toThrow(
        /anvil exited during start/,
      )
      expect(await readFile(statePath, 'utf8')).toBe(saved)
      expect((await readdir(join(dataDir.dir, 'chain'))).filter((f) => f.includes('.unreadable-'))).toEqual(
        [],
      )

      const again = await startChain({ dataDir: dataDir.dir })
      try {
        expect(await again.publicClient.getBalance({ address: funded })).toBe(parseEther('2'))
      } finally {
        await again.stop()
      }
    } finally {
      await dataDir.remove()
    }
  })

  it("keeps the last good state when its start finds anvil's port taken: the start moves to another port", async () => {
    const dataDir = await makeDataDir()
    try {
      const funded = await cutOffStateAfterAGoodStart(dataDir.dir, parseEther('3'))
      // anvil itself, but at its second run (the one on the last good state) another process first takes its port.
      const wrapper = join(dataDir.dir, 'anvil-port-taken.sh')
      const count = join(dataDir.dir, 'anvil-runs')
      await writeFile(
        wrapper,
        [
          '#!/bin/sh',
          `n=$(( $(cat '${count}' 2>/dev/null || echo 0) + 1 )); echo $n > '${count}'`,
          'if [ "$n" = 2 ]; then',
          '  port=; prev=; for a in "$@"; do [ "$prev" = --port ] && port=$a; prev=$a; done',
          `  '${process.execPath}' -e "const s = require('net').createServer().listen($port, '127.0.0.1', () => console.log('up')); setTimeout(() => s.close(), 5000)" > '${count}.squat' &`,
          `  until grep -q up '${count}.squat' 2>/dev/null; do sleep 0.05; done`,
          'fi',
          `exec '${resolveAnvilBinary()}' "$@"`,
        ].join('\n'),
        { mode: 0o755 },
      )
      const third = await startChain({ dataDir: dataDir.dir, anvilPath: wrapper })
      try {
        expect(await readFile(count, 'utf8')).toBe('3\n')
        expect(third.deployed).toEqual([])
        expect(await third.publicClient.getBalance({ address: funded })).toBe(parseEther('3'))
      } finally {
        await third.stop()
      }
    } finally {
      await dataDir.remove()
    }
  })

  it('falls back to the last good state when the state file is unreadable (cut off by a hard kill)', async () => {
    const dataDir = await makeDataDir()
    try {
      const funded = await cutOffStateAfterAGoodStart(dataDir.dir, parseEther('1'))

      const third = await startChain({ dataDir: dataDir.dir })
      try {
        expect(third.deployed).toEqual([])
        expect(await third.publicClient.getBalance({ address: funded })).toBe(parseEther('1'))
        expect((await readdir(join(dataDir.dir, 'chain'))).some((f) => f.includes('.unreadable-'))).toBe(true)
      } finally {
        await third.stop()
      }
    } finally {
      await dataDir.remove()
    }
  })
})
