import { readFile } from 'node:fs/promises'
import { getContractAddress, type Hex, keccak256, parseEther } from 'viem'
import {
  entryPoint07Abi,
  entryPoint07Address,
  entryPoint08Abi,
  entryPoint08Address,
  entryPoint09Abi,
  entryPoint09Address,
} from 'viem/account-abstraction'
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
import {
  packedTokenPaymasterAbi,
  packedVerifyingPaymasterAbi,
} from '../../../src/main/service/chain/abis/packedPaymasters'
import { sdkProxyArtifact } from '../../../src/main/service/chain/artifacts'
import { buildDeploymentPlan } from '../../../src/main/service/chain/deploy/buildDeploymentPlan'
import { holdsPlannedCode } from '../../../src/main/service/chain/deploy/deployContracts'
import { makeDataDir } from './userOpHelpers'

describe('startChain (embedded anvil)', () => {
  let dataDir: Awaited<ReturnType<typeof makeDataDir>>
  let chain: Chain | undefined
  /** The head once the fresh start's deployment was done. */
  let deploymentHead = 0

  beforeAll(async () => {
    dataDir = await makeDataDir()
  })
  afterAll(async () => {
    await chain?.stop()
    await dataDir.remove()
  })

  it('deploys every contract at its canonical address on a fresh start, each with the expected runtime code', async () => {
    chain = await startChain({ dataDir: dataDir.dir })
    deploymentHead = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }))
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
    // The service's own contracts, then the account zoo (test/integration/chain/accountZoo.test.ts).
    expect(chain.deployed.filter((name) => plan.some((p) => p.name === name)).sort()).toEqual(
      plan.map((p) => p.name).sort(),
    )
    for (const item of plan) {
      const code = await chain.publicClient.getCode({ address: item.address })
      expect(code && holdsPlannedCode(code, item), item.name).toBe(true)
      if (item.codeMatch !== 'immutablesMasked')
        expect(code && keccak256(code), item.name).toBe(keccak256(item.expectedCode))
    }
  })

  it('deploys EntryPoint v0.7 and v0.8, their SimpleAccountFactories and Simple7702Account where viem and permissionless expect them, with the canonical code', async () => {
    if (!chain) throw new Error('no chain')
    // The addresses viem (entryPoint07Address, entryPoint08Address, toSimple7702SmartAccount) and permissionless
    // (toSimpleSmartAccount's factories) hard-code.
    expect(chain.addresses.entryPointV07).toBe(entryPoint07Address)
    expect(chain.addresses.entryPointV08).toBe(entryPoint08Address)
    expect(chain.addresses.simpleAccountFactoryV07).toBe('0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985')
    expect(chain.addresses.simpleAccountFactoryV08).toBe('0x13E9ed32155810FDbd067D4522C492D6f68E5944')
    expect(chain.addresses.simple7702AccountV08).toBe('0xe6Cae83BdE06E4c305530e199D7217f42808555B')
    // Runtime code hashes on chain 31337 (v0.8's EIP-712 domain immutables depend on the chain id), as the
    // canonical deployments on every chain with that id have them.
    const codeHashes: Record<string, Hex> = {}
    for (const name of [
      'entryPointV07',
      'simpleAccountFactoryV07',
      'entryPointV08',
      'simpleAccountFactoryV08',
      'simple7702AccountV08',
    ] as const) {
      const code = await chain.publicClient.getCode({ address: chain.addresses[name] })
      codeHashes[name] = keccak256(code ?? '0x')
    }
    expect(codeHashes).toMatchInlineSnapshot(`
      {
        "entryPointV07": "0x8db5ff695839d655407cc8490bb7a5d82337a86a6b39c3f0258aa6c3b582fc58",
        "entryPointV08": "0x0a58ad57e3f8266dcc99cda79b0d3d784a4cedc4e972f33a8a2c5cecbb9e67b4",
        "simple7702AccountV08": "0xcc7b633aef4b2543cb8f37522adf1a401f910f0f6b2430c1eecc11f401ccfcf3",
        "simpleAccountFactoryV07": "0xef864ebcb05608afdd25888b657deb36cdee118a2b4e0adbbe47e26f938ded45",
        "simpleAccountFactoryV08": "0xa2e635152a61e180383c7afc045620b7461ef6f43ba27d592262513106b991b7",
      }
    `)
    const senderCreatorV08 = await chain.publicClient.readContract({
      address: chain.addresses.entryPointV08,
      abi: entryPoint08Abi,
      functionName: 'senderCreator',
    })
    expect(senderCreatorV08).toBe(getContractAddress({ from: chain.addresses.entryPointV08, nonce: 1n }))
  })

  it('deploys EntryPoint v0.9, its SenderCreator and its Simple7702Account at their canonical addresses, byte for byte the v0.9.0 release', async () => {
    if (!chain) throw new Error('no chain')
    // The addresses viem (entryPoint09Address, toSimple7702SmartAccount({ entryPoint: '0.9' })) hard-codes.
    expect(chain.addresses.entryPointV09).toBe(entryPoint09Address)
    expect(chain.addresses.simple7702AccountV09).toBe('0xa46cc63eBF4Bd77888AA327837d20b23A63a56B5')
    const senderCreator = await chain.publicClient.readContract({
      address: chain.addresses.entryPointV09,
      abi: entryPoint09Abi,
      functionName: 'senderCreator',
    })
    expect(senderCreator).toBe('0x0A630a99Df908A81115A3022927Be82f9299987e')
    // CREATE2 hashes the whole creation code: landing at these addresses is being the release's code. The runtime
    // code hashes on chain 31337 (the EntryPoint's EIP-712 domain immutables depend on the chain id); the
    // SenderCreator's is the one every chain has.
    const codeHashes: Record<string, Hex> = {}
    for (const address of [
      chain.addresses.entryPointV09,
      senderCreator,
      chain.addresses.simple7702AccountV09,
    ]) {
      codeHashes[address] = keccak256((await chain.publicClient.getCode({ address })) ?? '0x')
    }
    expect(codeHashes).toMatchInlineSnapshot(`
      {
        "0x0A630a99Df908A81115A3022927Be82f9299987e": "0xa7d4dd260bca9c96da49f7c0682fdda7f0074694d935815a336d3e60ee3ec6ad",
        "0x433709009B8330FDa32311DF1C2AFA402eD8D009": "0x94c969b899cb2a68ac9c124d8ee104a047771ee988f155b4e4683c254291f805",
        "0xa46cc63eBF4Bd77888AA327837d20b23A63a56B5": "0xc443c078781889c491bf2b29230504c029e910018b6be8ee67f4e36422b9d8cb",
      }
    `)
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

  it('deploys the v0.7 and v0.8 verifying and token paymasters bound to their EntryPoint, signed by the service key, staked for a day, the token paymasters with a deposit', async () => {
    if (!chain) throw new Error('no chain')
    const a = chain.addresses
    for (const [paymaster, entryPoint, abi, token] of [
      [a.verifyingPaymasterV07, a.entryPointV07, packedVerifyingPaymasterAbi, false],
      [a.tokenPaymasterV07, a.entryPointV07, packedTokenPaymasterAbi, true],
      [a.verifyingPaymasterV08, a.entryPointV08, packedVerifyingPaymasterAbi, false],
      [a.tokenPaymasterV08, a.entryPointV08, packedTokenPaymasterAbi, true],
    ] as const) {
      const read = (functionName: 'entryPoint' | 'owner' | 'verifyingSigner') =>
        chain!.publicClient.readContract({ address: paymaster, abi, functionName })
      expect(await read('entryPoint')).toBe(entryPoint)
      expect(await read('owner')).toBe(chain.executor.address)
      expect(await read('verifyingSigner')).toBe(chain.paymasterSigner.address)
      const info = await chain.publicClient.readContract({
        address: entryPoint,
        abi: entryPoint07Abi,
        functionName: 'getDepositInfo',
        args: [paymaster],
      })
      expect(info.staked, paymaster).toBe(true)
      expect(info.unstakeDelaySec).toBeGreaterThanOrEqual(86_400)
      if (token) expect(info.deposit).toBe(parseEther('10'))
    }
    expect(
      new Set([a.verifyingPaymasterV07, a.tokenPaymasterV07, a.verifyingPaymasterV08, a.tokenPaymasterV08])
        .size,
    ).toBe(4)
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
    const statePath = chain.anvil?.statePath
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
    await chain.stop()
    chain = undefined
    // The saved state leaves out the deployment's blocks and transactions (half of a fresh chain's state file): the
    // genesis block and the blocks mined since.
    if (!statePath) throw new Error('no state path')
    const saved = JSON.parse(await readFile(statePath, 'utf8')) as {
      blocks: { header: { number: string } }[]
      transactions: { block_number: number }[]
    }
    const since = Array.from({ length: Number(head) - deploymentHead }, (_, i) => deploymentHead + 1 + i)
    expect(since.length).toBeGreaterThan(0)
    expect(saved.blocks.map((b) => Number(b.header.number)).sort((a, b) => a - b)).toEqual([0, ...since])
    expect(saved.transactions.every((t) => t.block_number > deploymentHead)).toBe(true)

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
    expect(await getGasTankBalance(chain, paymasterId, '0.6')).toBe(parseEther('2'))
    expect(chain.getPaymasterIdAccount(paymasterId)?.address).toBe(paymasterId)
  })
})
