import { encodeFunctionData, parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { expectRejectionLine } from '../../helpers/expectRejectionLine'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import {
  buildSponsorRequestOp,
  callConsole,
  callPaymaster,
  createDapp,
  gasTankOf,
  sponsoredContext,
} from './paymasterTestKit'

let service: TestService
let apiKey: string

beforeAll(async () => {
  service = await getSharedTestService()
  apiKey = (await createDapp(service)).apiKey
})

async function error(method: string, params: unknown[], key = apiKey) {
  const { status, body } = await callPaymaster(service, key, method, params)
  return { status, error: body.error }
}

describe('paymaster rejections: deterministic, HTTP 4xx, with the reason in the message', () => {
  it('reads a v0.7/v0.8-shaped operation by its own schema (Biconomy methods by shape, ERC-7677 by the EntryPoint) and names the bad field', async () => {
    const v06 = await buildSponsorRequestOp(service)
    const { initCode: _initCode, ...rest } = v06 as Record<string, unknown>
    const orphanData = { ...rest, factoryData: '0x1234', paymasterVerificationGasLimit: '0x1' }
    const biconomy = await error('pm_sponsorUserOperation', [orphanData, sponsoredContext()])
    expect(biconomy.status).toBe(400)
    expect(biconomy.error.code).toBe(-32602)
    expect(biconomy.error.message).toMatch(/params\[0\]\.factoryData: factoryData without a factory/)
    const erc7677 = await error('pm_getPaymasterStubData', [
      { ...rest, paymasterData: '0x12' },
      '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
      `0x${service.chain!.chainId.toString(16)}`,
      {},
    ])
    expect(erc7677.status).toBe(400)
    expect(erc7677.error.message).toMatch(/params\[0\]\.paymasterData: paymasterData without a paymaster/)
  })

  it('refuses to guess the EntryPoint of an operation with neither v0.6 nor v0.7 fields, and takes it from ctx.entryPoint', async () => {
    const v06 = await buildSponsorRequestOp(service)
    const { initCode: _i, paymasterAndData: _p, ...bare } = v06 as Record<string, unknown>
    const refused = await error('pm_sponsorUserOperation', [bare, sponsoredContext()])
    expect(refused.status).toBe(400)
    expect(refused.error.code).toBe(-32602)
    expect(refused.error.message).toMatch(/^Cannot tell the EntryPoint version of this UserOperation/)
    // Named in the context, the same fields are read as a v0.7 operation: decided (and recorded) for v0.7.
    await error('pm_sponsorUserOperation', [
      bare,
      sponsoredContext({ entryPoint: service.chain!.addresses.entryPointV07 }),
    ])
    const decisions = await callConsole(
      service,
      `/console/api/sponsorship-decisions?apiKey=${apiKey}&limit=1`,
    )
    expect(decisions.body.data.items[0]).toMatchObject({ entryPointVersion: '0.7', sender: bare.sender })
  })

  it('names a missing and an unsupported fee token in ERC20 mode', async () => {
    const op = await buildSponsorRequestOp(service)
    const tokens = service.chain!.addresses.tokens.map((t) => `${t.symbol} ${t.address}`).join(', ')
    expect(await error('pm_sponsorUserOperation', [op, { mode: 'ERC20', tokenInfo: {} }])).toEqual({
      status: 400,
      error: {
        code: -32602,
        message: `tokenInfo.feeTokenAddress is required in ERC20 mode (supported tokens: ${tokens})`,
      },
    })
    const unknown = randomAddress()
    expect(
      await error('pm_sponsorUserOperation', [
        op,
        { mode: 'ERC20', tokenInfo: { feeTokenAddress: unknown } },
      ]),
    ).toEqual({
      status: 400,
      error: {
        code: -32602,
        message: `Token ${unknown} is not supported by this paymaster (supported tokens: ${tokens})`,
      },
    })
  })

  it('requires mode, fees for signing, and gas limits when calculateGasLimits is false', async () => {
    const op = await buildSponsorRequestOp(service)
    expect(await error('pm_sponsorUserOperation', [op, { calculateGasLimits: true }])).toMatchInlineSnapshot(`
      {
        "error": {
          "code": -32602,
          "message": "Invalid params: params[1].mode: mode is required (SPONSORED or ERC20)",
        },
        "status": 400,
      }
    `)
    const { maxFeePerGas: _fee, ...withoutFees } = op
    expect((await error('pm_sponsorUserOperation', [withoutFees, sponsoredContext()])).error.message).toBe(
      'maxFeePerGas and maxPriorityFeePerGas are required: the paymaster signs them (get them from biconomy_getGasFeeValues)',
    )
    expect(
      (await error('pm_sponsorUserOperation', [op, sponsoredContext({ calculateGasLimits: false })])).error
        .message,
    ).toBe(
      'callGasLimit, verificationGasLimit and preVerificationGas are required when calculateGasLimits is false',
    )
  })

  it('reports a call that reverts during estimation as -32521 naming the frame and its reason rather than signing it', async () => {
    const token = service.chain!.addresses.tokens[0]!.address
    const transfer = encodeFunctionData({
      abi: testTokenAbi,
      functionName: 'transfer',
      args: [randomAddress(), 1n],
    })
    const op = await buildSponsorRequestOp(service, undefined, { to: token, data: transfer })
    const { status, error: rpcError } = await error('pm_sponsorUserOperation', [op, sponsoredContext()])
    expect(status).toBe(400)
    expect(rpcError.code).toBe(-32521)
    expect(rpcError.data).toMatchObject({
      phase: 'execution',
      address: token,
      function: 'transfer(address,uint256)',
    })
    expectRejectionLine(
      rpcError,
      new RegExp(
        `^execution reverted in \\w+\\.transfer\\(address,uint256\\) at ${token}: .*ERC20: transfer amount exceeds balance`,
      ),
    )
  })

  it('checks the ERC-7677 entry point and chain id', async () => {
    const op = await buildSponsorRequestOp(service)
    const wrongEntryPoint = randomAddress()
    expect(
      await error('pm_getPaymasterStubData', [op, wrongEntryPoint, '0x7a69', { mode: 'SPONSORED' }]),
    ).toEqual({
      status: 400,
      error: {
        code: -32602,
        message: `EntryPoint ${wrongEntryPoint} is not supported: this paymaster serves ${service.chain!.addresses.entryPoint} (v0.6), ${service.chain!.addresses.entryPointV07} (v0.7), ${service.chain!.addresses.entryPointV08} (v0.8), ${service.chain!.addresses.entryPointV09} (v0.9)`,
      },
    })
    const entryPoint = service.chain!.addresses.entryPoint
    expect((await error('pm_getPaymasterStubData', [op, entryPoint, '0x1', {}])).error.message).toBe(
      'Chain ID 1 is not served here (chain 31337)',
    )
    const stub = await callPaymaster(service, apiKey, 'pm_getPaymasterStubData', [op, entryPoint, '0x7a69'])
    expect(stub.body.result).toMatchObject({ isFinal: false, sponsor: { name: 'Opstation' } })
    expect((stub.body.result.paymasterAndData.length - 2) / 2).toBe(276)
  })

  it('does not sponsor from an empty gas tank (console withdraw), and says how much was needed', async () => {
    const dapp = await createDapp(service)
    const balance = await gasTankOf(service, dapp.paymasterId, '0.6')
    const withdrawn = await callConsole(service, `/console/api/dapps/${dapp.apiKey}/gas-tank`, {
      method: 'POST',
      body: { action: 'withdraw', amountWei: balance.toString() },
    })
    expect(withdrawn.status).toBe(200)
    expect(withdrawn.body.data).toMatchObject({
      paymasterId: dapp.paymasterId,
      balanceWei: '0',
      balanceEth: '0',
    })
    const op = await buildSponsorRequestOp(service)
    const { body } = await callPaymaster(service, dapp.apiKey, 'pm_sponsorUserOperation', [
      op,
      sponsoredContext(),
    ])
    expect(body.result.paymasterAndData).toBe('0x')
    const decisions = await callConsole(
      service,
      `/console/api/sponsorship-decisions?apiKey=${dapp.apiKey}&limit=1`,
    )
    expect(decisions.body.data.items[0].reason).toMatch(
      new RegExp(
        `^Gas tank too low: gas tank ${dapp.paymasterId} \\(EntryPoint v0\\.6\\) holds 0 ETH; the operation may cost up to 0\\.\\d+ ETH$`,
      ),
    )

    const deposited = await callConsole(service, `/console/api/dapps/${dapp.apiKey}/gas-tank`, {
      method: 'POST',
      body: { action: 'deposit', amountWei: parseEther('1').toString() },
    })
    expect(deposited.body.data.balanceWei).toBe(parseEther('1').toString())
    const again = await callPaymaster(service, dapp.apiKey, 'pm_sponsorUserOperation', [
      op,
      sponsoredContext(),
    ])
    expect(again.body.result.paymasterAndData).not.toBe('0x')
  })
})
