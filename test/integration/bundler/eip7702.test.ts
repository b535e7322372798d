import { type Address, createWalletClient, type Hex, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getZooAddress } from '../../../src/main/service/chain/accountZoo/zooContracts'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { proveClientCell } from '../clients/clientMatrix'
import { callBundler, createSimple7702Client, randomAddress } from './bundlerTestKit'

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service?.dispose()
})

const create7702Client = () => createSimple7702Client(service)

/** A signed authorization (viem's form) as ERC-7769's `eip7702Auth`. */
const toWireAuthorization = (authorization: {
  address: Address
  chainId: number
  nonce: number
  r: Hex
  s: Hex
  yParity?: number
}) => ({
  address: authorization.address,
  chainId: `0x${authorization.chainId.toString(16)}`,
  nonce: `0x${authorization.nonce.toString(16)}`,
  r: authorization.r,
  s: authorization.s,
  yParity: `0x${(authorization.yParity ?? 0).toString(16)}`,
})

describe("viem's toSimple7702SmartAccount on EntryPoint v0.8 (EIP-7702)", () => {
  it('delegates the EOA in a type-4 bundle carrying its authorization, calls, and calls again without one', async (context) => {
    proveClientCell(context, {
      client: 'viem',
      account: 'Simple7702Account (EIP-7702)',
      entryPoint: '0.8',
      payment: 'self-paid',
    })
    const { client, owner, account, bundlerClient } = await create7702Client()
    expect(account.address).toBe(owner.address)
    const to = randomAddress()
    // As viem's documentation does it: the EOA signs the authorization itself (prepareUserOperation fills a stub).
    const authorization = await owner.signAuthorization({
      address: service.chain!.addresses.simple7702AccountV08,
      chainId: service.chain!.chainId,
      nonce: await client.getTransactionCount({ address: owner.address }),
    })
    const hash = await bundlerClient.sendUserOperation({ calls: [{ to, value: 777n }], authorization })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.sender).toBe(owner.address)
    expect(await client.getBalance({ address: to })).toBe(777n)
    // The EOA now delegates to Simple7702Account, set by the bundle's type-4 transaction.
    expect(await client.getCode({ address: owner.address })).toBe(
      `0xef0100${service.chain!.addresses.simple7702AccountV08.slice(2).toLowerCase()}`,
    )
    const bundle = await client.getTransaction({ hash: receipt.receipt.transactionHash })
    expect(bundle.type).toBe('eip7702')
    expect(bundle.authorizationList?.[0]?.address.toLowerCase()).toBe(
      service.chain!.addresses.simple7702AccountV08.toLowerCase(),
    )
    const byHash = await bundlerClient.getUserOperation({ hash })
    expect(byHash.userOperation.factory).toBe('0x7702')

    // Delegated already: the next operation carries no authorization and goes in a plain transaction.
    const second = await bundlerClient.sendUserOperation({
      calls: [
        { to, value: 1n },
        { to, value: 2n },
      ],
    })
    const secondReceipt = await bundlerClient.waitForUserOperationReceipt({ hash: second })
    expect(secondReceipt.success).toBe(true)
    expect(await client.getBalance({ address: to })).toBe(780n)
  })

  it('rejects an authorization signed by another key than the sender (-32602) and one for another nonce of the EOA (AA20, -32500: it would not apply)', async () => {
    const { client, owner, account, bundlerClient } = await create7702Client()
    const prepared = await bundlerClient.prepareUserOperation({ calls: [{ to: randomAddress(), value: 1n }] })
    const wire = (authorization: Parameters<typeof toWireAuthorization>[0]) => ({
      sender: prepared.sender,
      nonce: `0x${prepared.nonce.toString(16)}`,
      factory: '0x7702',
      factoryData: '0x',
      callData: prepared.callData,
      callGasLimit: `0x${prepared.callGasLimit.toString(16)}`,
      verificationGasLimit: `0x${prepared.verificationGasLimit.toString(16)}`,
      preVerificationGas: `0x${prepared.preVerificationGas.toString(16)}`,
      maxFeePerGas: `0x${prepared.maxFeePerGas.toString(16)}`,
      maxPriorityFeePerGas: `0x${prepared.maxPriorityFeePerGas.toString(16)}`,
      signature: prepared.signature,
      eip7702Auth: toWireAuthorization(authorization),
    })
    const chainId = service.chain!.chainId
    const implementation = service.chain!.addresses.simple7702AccountV08
    const stranger = privateKeyToAccount(generatePrivateKey())
    const foreign = await stranger.signAuthorization({ address: implementation, chainId, nonce: 0 })
    const byStranger = await callBundler(service, 'eth_sendUserOperation', [
      wire(foreign as never),
      account.entryPoint.address,
    ])
    expect(byStranger.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/signer 0x[0-9a-fA-F]{40} is not the sender/),
    })

    const nonce = await client.getTransactionCount({ address: owner.address })
    const stale = await owner.signAuthorization({ address: implementation, chainId, nonce: nonce + 5 })
    const staleResponse = await callBundler(service, 'eth_sendUserOperation', [
      wire(stale as never),
      account.entryPoint.address,
    ])
    expect(staleResponse.body.error.code).toBe(-32500)
    expect(staleResponse.body.error.message).toMatch(
      /AA20 account not deployed: EIP-7702 authorization no longer matches/,
    )
  })

  it('drops an accepted operation whose authorization no longer matches when it is bundled (the EOA used its nonce)', async () => {
    const { client, owner, bundlerClient } = await create7702Client()
    expect((await callBundler(service, 'debug_bundler_setBundlingMode', ['manual'])).body.result).toBe('ok')
    try {
      const authorization = await owner.signAuthorization({
        address: service.chain!.addresses.simple7702AccountV08,
        chainId: service.chain!.chainId,
        nonce: await client.getTransactionCount({ address: owner.address }),
      })
      const hash = await bundlerClient.sendUserOperation({
        calls: [{ to: randomAddress(), value: 1n }],
        authorization,
      })
      // The EOA sends a transaction of its own: the authorization's nonce is used before the bundle goes out.
      const wallet = createWalletClient({
        account: owner,
        chain: client.chain,
        transport: http(service.info().rpcUrl!),
      })
      await client.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to: randomAddress(), value: 1n, chain: null }),
      })
      await callBundler(service, 'debug_bundler_sendBundleNow', [])
      const status = await callBundler(service, 'biconomy_getUserOperationStatus', [hash])
      expect(status.body.result.state).toBe('DROPPED_FROM_BUNDLER_MEMPOOL')
      expect(status.body.result.message).toMatch(/EIP-7702 authorization no longer matches/)
      expect(await client.getCode({ address: owner.address })).toBeUndefined()
    } finally {
      await callBundler(service, 'debug_bundler_setBundlingMode', ['auto'])
    }
  })

  it('refuses the 0x7702 factory marker without an authorization with -32602', async () => {
    const response = await callBundler(service, 'eth_sendUserOperation', [
      {
        sender: randomAddress(),
        nonce: '0x0',
        factory: '0x7702',
        factoryData: '0x',
        callData: '0x',
        callGasLimit: '0x1',
        verificationGasLimit: '0x1',
        preVerificationGas: '0x1',
        maxFeePerGas: '0x1',
        maxPriorityFeePerGas: '0x1',
        signature: '0x',
      },
      service.chain!.addresses.entryPointV08,
    ])
    expect(response.status).toBe(400)
    expect(response.body.error.code).toBe(-32602)
    expect(response.body.error.message).toMatch(/eip7702Auth: the 0x7702 factory marker needs/)
  })
})

/**
 * EntryPoint v0.7 knows no EIP-7702, but its operations may carry an `eip7702Auth` (ZeroDev's Kernel v3.3 and
 * Biconomy's Nexus send one): the bundler checks it as for v0.8 before anything is simulated. An operation from a
 * fresh EOA delegating to Kernel v3.3's implementation (in the account zoo), built by hand: these checks come first.
 */
describe('eip7702Auth on EntryPoint v0.7', () => {
  const kernelV3_3 = () => getZooAddress('kernelV3_3')
  const wireV07 = (
    owner: Address,
    authorization: Parameters<typeof toWireAuthorization>[0],
    fields: Record<string, unknown> = {},
  ) => ({
    sender: owner,
    nonce: '0x0',
    callData: '0x',
    callGasLimit: '0x10000',
    verificationGasLimit: '0x10000',
    preVerificationGas: '0x30000',
    maxFeePerGas: '0x3b9aca00',
    maxPriorityFeePerGas: '0x3b9aca00',
    signature: `0x${'11'.repeat(65)}`,
    eip7702Auth: toWireAuthorization(authorization),
    ...fields,
  })
  const send = (op: Record<string, unknown>) =>
    callBundler(service, 'eth_sendUserOperation', [op, service.chain!.addresses.entryPointV07])

  it('checks its signer, chain id and nonce as v0.8 does: another signer or chain is -32602, another nonce of a codeless EOA AA20 (-32500)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const chainId = service.chain!.chainId
    const stranger = privateKeyToAccount(generatePrivateKey())
    const foreign = await stranger.signAuthorization({ address: kernelV3_3(), chainId, nonce: 0 })
    expect((await send(wireV07(owner.address, foreign))).body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/signer 0x[0-9a-fA-F]{40} is not the sender/),
    })
    const otherChain = await owner.signAuthorization({
      address: kernelV3_3(),
      chainId: chainId + 1,
      nonce: 0,
    })
    expect((await send(wireV07(owner.address, otherChain))).body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/eip7702Auth.chainId \d+ is not this chain's/),
    })
    const stale = await owner.signAuthorization({ address: kernelV3_3(), chainId, nonce: 5 })
    const staleResponse = await send(wireV07(owner.address, stale))
    expect(staleResponse.body.error.code).toBe(-32500)
    expect(staleResponse.body.error.message).toMatch(
      /AA20 account not deployed: EIP-7702 authorization no longer matches: it is for account nonce 5, the account's nonce is 0/,
    )
  })

  it('refuses the 0x7702 factory marker (v0.7 would call it as a factory) and a factory beside the authorization (AA10 once it applied), with -32602', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const authorization = await owner.signAuthorization({
      address: kernelV3_3(),
      chainId: service.chain!.chainId,
      nonce: 0,
    })
    const marker = await send(wireV07(owner.address, authorization, { factory: '0x7702', factoryData: '0x' }))
    expect(marker.body.error.code).toBe(-32602)
    expect(marker.body.error.message).toMatch(
      /factory: EntryPoint v0.7 takes no 0x7702 factory \(v0.8 does\)/,
    )
    const withFactory = await callBundler(service, 'eth_estimateUserOperationGas', [
      wireV07(owner.address, authorization, {
        factory: getZooAddress('kernelFactoryV3_3'),
        factoryData: '0x1234',
      }),
      service.chain!.addresses.entryPointV07,
    ])
    expect(withFactory.body.error.code).toBe(-32602)
    expect(withFactory.body.error.message).toMatch(
      /factory: an operation with an eip7702Auth names no factory: .*AA10 sender already constructed/,
    )
  })
})
