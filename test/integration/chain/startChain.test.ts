import { keccak256, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Chain,
  canonicalAddresses,
  createGasTank,
  fundEth,
  getDepositInfo,
  getGasTankBalance,
  smartAccountFactoryAbi,
  startChain,
  verifyingPaymasterAbi,
} from '../../../src/main/service/chain'
import { sdkProxyArtifact } from '../../../src/main/service/chain/artifacts'
import { buildDeploymentPlan } from '../../../src/main/service/chain/deploy/buildDeploymentPlan'
import { makeDataDir } from './userOpHelpers'

describe('startChain (embedded anvil)', () => {
  let dataDir: Awaited<ReturnType<typeof makeDataDir>>
  let chain: Chain | undefined

  beforeAll(async () => {
    dataDir = await makeDataDir()
  })
  afterAll(async () => {
    await chain?.stop()
    await dataDir.remove()
  })

  it('deploys every contract at its canonical address on a fresh start, each with the expected runtime code', async () => {
    chain = await startChain({ dataDir: dataDir.dir })
    console.info(`fresh start with all deployments: ${chain.startMs} ms`)
    expect(chain.kind).toBe('embedded')
    expect(chain.chainId).toBe(31337)
    expect(chain.missing).toEqual([])
    expect(chain.mismatched).toEqual([])
    expect(chain.addresses.entryPoint).toBe(canonicalAddresses.entryPoint)
    expect(chain.addresses.simpleAccountFactory).toBe(canonicalAddresses.simpleAccountFactory)
    expect(chain.addresses.smartAccountFactory).toBe(canonicalAddresses.smartAccountFactory)
    expect(chain.addresses.smartAccountImplementation).toBe(canonicalAddresses.smartAccountImplementation)
    expect(chain.addresses.fallbackHandler).toBe(canonicalAddresses.fallbackHandler)
    expect(chain.addresses.ecdsaModule).toBe(canonicalAddresses.ecdsaModule)
    expect(chain.addresses.verifyingPaymaster).toBe(canonicalAddresses.verifyingPaymaster)
    expect(chain.addresses.tokenPaymaster).toBe(canonicalAddresses.tokenPaymaster)
    expect(chain.addresses.tokens.map((t) => [t.symbol, t.decimals])).toEqual([
      ['tUSDC', 6],
      ['tDAI', 18],
    ])

    const plan = buildDeploymentPlan({
      canSetCode: true,
      owner: chain.executor.address,
      signer: chain.paymasterSigner.address,
    })
    expect(chain.deployed.sort()).toEqual(plan.map((p) => p.name).sort())
    for (const item of plan) {
      const code = await chain.publicClient.getCode({ address: item.address })
      expect(code && keccak256(code), item.name).toBe(keccak256(item.expectedCode))
    }
  })

  it('initializes the paymasters (owner = executor, signer = the service key) and stakes them for a day', async () => {
    if (!chain) throw new Error('no chain')
    const signer = await chain.publicClient.readContract({
      address: chain.addresses.verifyingPaymaster,
      abi: verifyingPaymasterAbi,
      functionName: 'verifyingSigner',
    })
    expect(signer).toBe(chain.paymasterSigner.address)
    const owner = await chain.publicClient.readContract({
      address: chain.addresses.verifyingPaymaster,
      abi: verifyingPaymasterAbi,
      functionName: 'owner',
    })
    expect(owner).toBe(chain.executor.address)
    for (const address of [chain.addresses.verifyingPaymaster, chain.addresses.tokenPaymaster]) {
      const info = await getDepositInfo(chain, address)
      expect(info.staked).toBe(true)
      expect(info.unstakeDelaySec).toBeGreaterThanOrEqual(86_400)
    }
    expect((await getDepositInfo(chain, chain.addresses.tokenPaymaster)).deposit).toBe(parseEther('10'))
  })

  it('makes the SA v2 factory deploy exactly the SDK PROXY_CREATION_CODE', async () => {
    if (!chain) throw new Error('no chain')
    const creationCode = await chain.publicClient.readContract({
      address: chain.addresses.smartAccountFactory,
      abi: smartAccountFactoryAbi,
      functionName: 'accountCreationCode',
    })
    expect(creationCode).toBe(sdkProxyArtifact.creationCode.toLowerCase())
  })

  it('finds everything in place on a second start in the same folder and keeps balances and gas tanks', async () => {
    if (!chain) throw new Error('no chain')
    const funded = privateKeyToAccount(generatePrivateKey()).address
    await fundEth(chain, funded, parseEther('3'))
    const { paymasterId } = await createGasTank(chain, { fundWei: parseEther('2') })
    const executor = chain.executor.address
    const signer = chain.paymasterSigner.address
    const firstUrl = chain.rpcUrl
    await chain.stop()
    chain = undefined

    chain = await startChain({ dataDir: dataDir.dir })
    console.info(`second start on the same folder: ${chain.startMs} ms`)
    expect(chain.deployed).toEqual([])
    expect(chain.missing).toEqual([])
    expect(chain.mismatched).toEqual([])
    expect(chain.executor.address).toBe(executor)
    expect(chain.paymasterSigner.address).toBe(signer)
    expect(chain.rpcUrl).not.toBe('')
    expect(typeof firstUrl).toBe('string')
    expect(await chain.publicClient.getBalance({ address: funded })).toBe(parseEther('3'))
    expect(await getGasTankBalance(chain, paymasterId)).toBe(parseEther('2'))
    expect(chain.getPaymasterIdAccount(paymasterId)?.address).toBe(paymasterId)
  })
})
