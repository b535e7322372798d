import { parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
import { testTokenArtifact } from '../../../src/main/service/chain/artifacts'
import { makeDataDir } from './userOpHelpers'

describe('embedded anvil supervision', () => {
  let dataDir: Awaited<ReturnType<typeof makeDataDir>>
  let chain: Chain

  beforeAll(async () => {
    dataDir = await makeDataDir()
    chain = await startChain({ dataDir: dataDir.dir })
  })
  afterAll(async () => {
    await chain?.stop()
    await dataDir?.remove()
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
    const deployed = (await chain.publicClient.waitForTransactionReceipt({ hash: deployHash }))
      .contractAddress
    if (!deployed) throw new Error('no contract address')
    // anvil dumps its state every 2 s (--state-interval); a hard kill loses at most that much.
    await new Promise((r) => setTimeout(r, 2500))

    const events: ChainEvent[] = []
    const restarted = new Promise<void>((resolve) => {
      chain.onEvent((event) => {
        events.push(event)
        if (event.type === 'chain.restarted') resolve()
      })
    })
    const urlBefore = chain.rpcUrl
    const pidBefore = chain.anvil?.pid()
    if (!pidBefore) throw new Error('no anvil pid')
    process.kill(pidBefore, 'SIGKILL')
    await restarted

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
    expect(await getGasTankBalance(chain, paymasterId)).toBe(parseEther('3'))
    expect(
      await chain.publicClient.readContract({
        address: deployed,
        abi: testTokenAbi,
        functionName: 'decimals',
      }),
    ).toBe(9)
  })
})
