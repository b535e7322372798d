import { encodeFunctionData, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import type { UserOperationV06 } from '../../../src/main/service/entryPoint'
import { computeUserOpHash, getUserOpHash } from '../../../src/main/service/entryPoint/v06/computeUserOpHash'
import type { SandboxAccount } from '../../../src/shared/sandbox'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

/** The sandbox console API against the real service and chain: accounts, build, sign, faucet. */
describe('sandbox routes', () => {
  let service: TestService
  let headers: Record<string, string>
  const url = (path: string) => `${service.baseUrl}${path}`

  beforeAll(async () => {
    service = await startTestService()
    headers = { authToken: service.authToken() }
  })
  afterAll(async () => {
    await service?.dispose()
  })

  async function createAccount(type: SandboxAccount['type']): Promise<SandboxAccount> {
    const res = await requestJson(url('/console/api/sandbox/accounts'), {
      method: 'POST',
      headers,
      body: { type },
    })
    expect(res.status).toBe(200)
    return res.body.data
  }

  it('creates accounts of both kinds at their factories’ counterfactual addresses and lists them without keys', async () => {
    const sa2 = await createAccount('SMART_ACCOUNT_V2')
    const simple = await createAccount('SIMPLE_ACCOUNT')
    expect(sa2).toMatchObject({ type: 'SMART_ACCOUNT_V2', deployed: false, balanceWei: '0', index: 0 })
    expect(simple).toMatchObject({ type: 'SIMPLE_ACCOUNT', deployed: false })
    const list = await requestJson(url('/console/api/sandbox/accounts'), { headers })
    expect(list.body.data.map((a: SandboxAccount) => a.address)).toEqual(
      expect.arrayContaining([sa2.address, simple.address]),
    )
    expect(JSON.stringify(list.body)).not.toMatch(/privateKey|ownerPrivateKey/i)
    expect(list.body.data[0].tokens.map((t: { symbol: string }) => t.symbol)).toEqual(['tUSDC', 'tDAI'])
  })

  it('builds an op with initCode and the SDK selector, and signs it with the owner for the EntryPoint hash', async () => {
    const account = await createAccount('SMART_ACCOUNT_V2')
    const chain = service.chain!
    const token = chain.addresses.tokens[0]!.address
    const data = encodeFunctionData({
      abi: testTokenAbi,
      functionName: 'mint',
      args: [account.address as `0x${string}`, 1n],
    })
    const built = await requestJson(url(`/console/api/sandbox/accounts/${account.address}/user-operation`), {
      method: 'POST',
      headers,
      body: { calls: [{ to: token, data }] },
    })
    expect(built.status).toBe(200)
    const op = built.body.data.userOperation
    expect(built.body.data.deployed).toBe(false)
    expect(op.initCode.toLowerCase().startsWith(chain.addresses.smartAccountFactory.toLowerCase())).toBe(true)
    expect(op.callData.slice(0, 10)).toBe('0x0000189a') // execute_ncC
    expect(op.nonce).toBe('0x0')

    const gassed = {
      ...op,
      callGasLimit: '0x10000',
      verificationGasLimit: '0x60000',
      preVerificationGas: '0xc000',
    }
    const signed = await requestJson(url(`/console/api/sandbox/accounts/${account.address}/sign`), {
      method: 'POST',
      headers,
      body: { userOperation: gassed },
    })
    expect(signed.status).toBe(200)
    const domain: UserOperationV06 = {
      sender: gassed.sender,
      nonce: BigInt(gassed.nonce),
      initCode: gassed.initCode,
      callData: gassed.callData,
      callGasLimit: BigInt(gassed.callGasLimit),
      verificationGasLimit: BigInt(gassed.verificationGasLimit),
      preVerificationGas: BigInt(gassed.preVerificationGas),
      maxFeePerGas: BigInt(gassed.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(gassed.maxPriorityFeePerGas),
      paymasterAndData: gassed.paymasterAndData,
      signature: '0x',
    }
    expect(signed.body.data.userOpHash).toBe(await getUserOpHash(chain, domain))
    expect(signed.body.data.userOpHash).toBe(
      computeUserOpHash(domain, chain.chainId, chain.addresses.entryPoint),
    )
    expect(signed.body.data.userOperation.signature).toBe(signed.body.data.signature)
  })

  it('faucet: ETH and test tokens, with clear errors for a bad asset or amount', async () => {
    const account = await createAccount('SIMPLE_ACCOUNT')
    const eth = await requestJson(url('/console/api/sandbox/faucet'), {
      method: 'POST',
      headers,
      body: { address: account.address, asset: 'ETH', amount: '1.5' },
    })
    expect(eth.body.data).toMatchObject({ symbol: 'ETH', balance: parseEther('1.5').toString() })
    const token = await requestJson(url('/console/api/sandbox/faucet'), {
      method: 'POST',
      headers,
      body: { address: account.address, asset: 'tUSDC', amount: '100' },
    })
    expect(token.body.data).toMatchObject({ symbol: 'tUSDC', balance: '100000000', decimals: 6 })

    const bad = await requestJson(url('/console/api/sandbox/faucet'), {
      method: 'POST',
      headers,
      body: { address: account.address, asset: 'DOGE', amount: '1' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/^asset must be "ETH" or a test token/)
    const amount = await requestJson(url('/console/api/sandbox/faucet'), {
      method: 'POST',
      headers,
      body: { address: account.address, asset: 'ETH', amount: '-1' },
    })
    expect(amount.status).toBe(400)
    expect(amount.body.message).toBe('amount must be a positive decimal number such as "1" or "0.5"')
  })

  it('refuses without the auth token, for unknown accounts and for a bad type', async () => {
    const noAuth = await requestJson(url('/console/api/sandbox/accounts'))
    expect(noAuth.status).toBe(401)
    const unknown = await requestJson(
      url('/console/api/sandbox/accounts/0x000000000000000000000000000000000000dEaD/sign'),
      {
        method: 'POST',
        headers,
        body: {
          userOperation: {
            sender: '0x000000000000000000000000000000000000dEaD',
            nonce: '0x0',
            initCode: '0x',
            callData: '0x',
            callGasLimit: '0x0',
            verificationGasLimit: '0x0',
            preVerificationGas: '0x0',
            maxFeePerGas: '0x0',
            maxPriorityFeePerGas: '0x0',
            paymasterAndData: '0x',
          },
        },
      },
    )
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toMatch(/^No sandbox account 0x000000000000000000000000000000000000dEaD/)
    const badType = await requestJson(url('/console/api/sandbox/accounts'), {
      method: 'POST',
      headers,
      body: { type: 'SAFE' },
    })
    expect(badType.status).toBe(400)
    expect(badType.body.message).toBe(
      'type must be one of SMART_ACCOUNT_V2, SIMPLE_ACCOUNT, SIMPLE_ACCOUNT_V07, SIMPLE_7702_V08, SIMPLE_7702_V09, SAFE_V07, KERNEL_V3_1, ' +
        'LIGHT_ACCOUNT_V2, NEXUS, SAFE_V06, KERNEL_V2_4, LIGHT_ACCOUNT_V1_1, TRUST, THIRDWEB_V06, COINBASE_V1, ' +
        'COINBASE_V1_1, ETHERSPOT, THIRDWEB_V07, MODULAR_ACCOUNT_V1, MODULAR_ACCOUNT_V2, SOLADY_V07, ' +
        'MODULAR_ACCOUNT_V1_MULTISIG',
    )
  })

  it('keeps the owner keys in the data folder, readable only by the user (0600)', async () => {
    const { stat } = await import('node:fs/promises')
    const file = `${service.dataDir}/sandbox/accounts.json`
    expect((await stat(file)).mode & 0o777).toBe(0o600)
  })
})
