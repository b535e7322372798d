import type { ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { keccak256, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Chain,
  canonicalAddresses,
  createGasTank,
  getDepositInfo,
  startChain,
  verifyingPaymasterAbi,
} from '../../../src/main/service/chain'
import { zooDeployments, zooEtchedDeployers } from '../../../src/main/service/chain/accountZoo/zooDeployments'
import { zooStakes } from '../../../src/main/service/chain/accountZoo/zooSetup'
import { buildDeploymentPlan } from '../../../src/main/service/chain/deploy/buildDeploymentPlan'
import { startPlainAnvil } from '../../helpers/startPlainAnvil'
import { makeDataDir } from './userOpHelpers'

/** A JSON-RPC proxy that hides every anvil_/hardhat_ method, like a node without set-code support. */
async function startRestrictedProxy(target: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const request = JSON.parse(body) as { id: number; method: string }
    if (/^(anvil|hardhat)_/.test(request.method)) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: request.id,
          error: { code: -32601, message: 'Method not found' },
        }),
      )
      return
    }
    const upstream = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    res.writeHead(upstream.status, { 'content-type': 'application/json' })
    res.end(await upstream.text())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

describe('external node', () => {
  const children: ChildProcess[] = []
  const chains: Chain[] = []
  const servers: Server[] = []
  let dataDir: Awaited<ReturnType<typeof makeDataDir>>

  beforeAll(async () => {
    dataDir = await makeDataDir()
  })
  afterAll(async () => {
    for (const chain of chains) await chain.stop()
    for (const server of servers) server.close()
    for (const child of children) child.kill('SIGTERM')
    await dataDir?.remove()
  })

  it('deploys everything on an external anvil at the canonical addresses (set code available)', async () => {
    const { url, child } = await startPlainAnvil(31337)
    children.push(child)
    const chain = await startChain({ dataDir: dataDir.dir, rpcUrl: url })
    chains.push(chain)
    console.info(`external anvil start with all deployments: ${chain.startMs} ms`)
    expect(chain.kind).toBe('external')
    expect(chain.anvil).toBeNull()
    expect(chain.rpcUrl).toBe(url)
    expect(chain.capabilities).toMatchObject({ isDev: true, devPrefix: 'anvil' })
    expect(chain.missing).toEqual([])
    expect(chain.mismatched).toEqual([])
    expect(chain.addresses.smartAccountFactory).toBe(canonicalAddresses.smartAccountFactory)
    expect(chain.addresses.verifyingPaymaster).toBe(canonicalAddresses.verifyingPaymaster)
    const { balance } = await createGasTank(chain)
    expect(balance).toBe(parseEther('10'))

    // A second start against the same node finds everything in place.
    const again = await startChain({ dataDir: dataDir.dir, rpcUrl: url })
    chains.push(again)
    expect(again.deployed).toEqual([])
    expect(again.executor.address).toBe(chain.executor.address)
  })

  it('on a node without set-code methods deploys what CREATE2 can and lists the Smart Account v2 stack as missing', async () => {
    const { url: anvilUrl, child } = await startPlainAnvil(1337)
    children.push(child)
    const { url, server } = await startRestrictedProxy(anvilUrl)
    servers.push(server)
    const chain = await startChain({ dataDir: dataDir.dir, rpcUrl: url })
    chains.push(chain)
    expect(chain.chainId).toBe(1337)
    // chain id 1337 counts as a dev chain: keys are generated, the executor is funded from the node's own account.
    expect(chain.capabilities).toMatchObject({ isDev: true, devPrefix: null })
    // The account zoo: what Safe's and Biconomy's deployers make (they need set code on a fresh node), and the
    // operators' set-up that needs impersonation (Kernel's allow-lists, factory stakes).
    const zooMissing = [
      ...zooEtchedDeployers.map((d) => d.name),
      ...zooDeployments
        .filter((d) => d.deployer !== 'create2Deployer')
        .flatMap((d) => d.contracts.map((c) => c.name)),
      'kernelFactoryV2 (owner set-up)',
      'kernelMetaFactory (owner set-up)',
      ...zooStakes.filter((s) => s.factory !== 'nexusK1ValidatorFactory').map((s) => `${s.factory} (stake)`),
    ]
    expect(chain.missing.sort()).toEqual(
      [
        'ecdsaModule',
        'fallbackHandler',
        'smartAccountFactory',
        'smartAccountImplementation',
        ...zooMissing,
      ].sort(),
    )
    expect(chain.mismatched).toEqual([])
    expect(chain.addresses.entryPoint).toBe(canonicalAddresses.entryPoint)
    expect(chain.addresses.simpleAccountFactory).toBe(canonicalAddresses.simpleAccountFactory)

    // Paymasters are CREATE2-deployed with constructor arguments (owner = executor, signer = service key).
    const plan = buildDeploymentPlan({
      canSetCode: false,
      owner: chain.executor.address,
      signer: chain.paymasterSigner.address,
    })
    const planned = plan.find((p) => p.name === 'verifyingPaymaster')
    expect(chain.addresses.verifyingPaymaster).toBe(planned?.address)
    const code = await chain.publicClient.getCode({ address: chain.addresses.verifyingPaymaster })
    expect(code && keccak256(code)).toBe(planned && keccak256(planned.expectedCode))
    expect(
      await chain.publicClient.readContract({
        address: chain.addresses.verifyingPaymaster,
        abi: verifyingPaymasterAbi,
        functionName: 'verifyingSigner',
      }),
    ).toBe(chain.paymasterSigner.address)
    expect((await getDepositInfo(chain, chain.addresses.tokenPaymaster)).staked).toBe(true)
  })
})
