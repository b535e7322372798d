import { type Address, concat, encodeAbiParameters, encodeFunctionData, type Hex, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { SIMULATION_GAS } from '../../../src/main/service/bundler/bundlerOptions'
import { checkValidationRules } from '../../../src/main/service/bundler/validation/checkValidationRules'
import { simulateValidationWithRules } from '../../../src/main/service/bundler/validation/simulateValidationWithRules'
import { traceValidationNatively } from '../../../src/main/service/bundler/validation/traceValidationNatively'
import {
  type ValidationFrame,
  type ValidationTrace,
  validationTracer,
} from '../../../src/main/service/bundler/validation/validationTracer'
import {
  type Chain,
  createGasTank,
  fundEth,
  traceCall,
  verifyingPaymasterAbi,
} from '../../../src/main/service/chain'
import type { UserOperationV06 } from '../../../src/main/service/entryPoint'
import { entryPointV06 } from '../../../src/main/service/entryPoint'
import { encodeSimulateValidation } from '../../../src/main/service/entryPoint/v06/encodeEntryPointCalls'
import {
  buildOp,
  encodeSmartAccountExecute,
  getSmartAccountAddress,
  getSmartAccountInitCode,
  sendHandleOps,
  signSmartAccountOp,
  withEmbeddedChain,
} from '../chain/userOpHelpers'
import { compileRuleTestContracts, deployRuleTestContracts } from './ruleTestAccount'

let chain: Chain
withEmbeddedChain((started) => {
  chain = started
})

async function traceBothWays(op: UserOperationV06) {
  const request = { to: chain.addresses.entryPoint, data: encodeSimulateValidation(op), gas: SIMULATION_GAS }
  const javascript = await traceCall<ValidationTrace>(chain, request, { tracer: validationTracer })
  const native = await traceValidationNatively(chain, request, undefined)
  return { javascript, native }
}

/**
 * The native traces record what the JavaScript tracer records: the same frames, opcodes, calls and out-of-gas
 * marks, and at least every storage slot it records.
 */
async function expectNativeToMatch(op: UserOperationV06): Promise<ValidationFrame[]> {
  const { javascript, native } = await traceBothWays(op)
  if ('gap' in native) throw new Error(`native trace has a gap: ${native.gap}`)
  expect(native.output).toBe(javascript.output)
  const withoutAccess = ({ access, ...rest }: ValidationFrame) => rest
  expect(native.frames.map(withoutAccess)).toEqual(javascript.frames.map(withoutAccess))
  javascript.frames.forEach((frame, i) => {
    for (const [owner, access] of Object.entries(frame.access)) {
      const nativeAccess = native.frames[i]?.access[owner as Address]
      expect(Object.keys(nativeAccess?.reads ?? {})).toEqual(
        expect.arrayContaining(Object.keys(access.reads)),
      )
      expect(Object.keys(nativeAccess?.writes ?? {})).toEqual(
        expect.arrayContaining(Object.keys(access.writes)),
      )
    }
  })
  return native.frames
}

async function newSmartAccount() {
  const owner = privateKeyToAccount(generatePrivateKey())
  const sender = await getSmartAccountAddress(chain, owner.address)
  return { owner, sender, initCode: getSmartAccountInitCode(chain, owner.address) }
}

async function ruleTestOperation(sender: Address): Promise<UserOperationV06> {
  const { account } = compileRuleTestContracts()
  const callData = encodeFunctionData({ abi: account.abi, functionName: 'execute', args: [sender, 0n, '0x'] })
  return buildOp(chain, { sender, callData, verificationGasLimit: 150_000n })
}

describe('native validation traces (safe mode without the JavaScript tracer)', () => {
  it('record what the JavaScript tracer records for a Smart Account v2 deployed through initCode, then used', async () => {
    const { owner, sender, initCode } = await newSmartAccount()
    await fundEth(chain, sender, parseEther('1'))
    const deploy = await buildOp(chain, {
      sender,
      initCode,
      callData: encodeSmartAccountExecute(owner.address, 1n),
    })
    deploy.signature = await signSmartAccountOp(chain, deploy, owner)
    const deployFrames = await expectNativeToMatch(deploy)
    expect(deployFrames.length).toBeGreaterThanOrEqual(3)

    await sendHandleOps(chain, [deploy])
    const call = await buildOp(chain, {
      sender,
      nonce: 1n,
      callData: encodeSmartAccountExecute(owner.address, 1n),
    })
    call.signature = await signSmartAccountOp(chain, call, owner)
    await expectNativeToMatch(call)
  })

  it('record what the JavaScript tracer records for an operation sponsored by the verifying paymaster', async () => {
    const { paymasterId } = await createGasTank(chain, { fundWei: parseEther('1') })
    const { owner, sender, initCode } = await newSmartAccount()
    const op = await buildOp(chain, { sender, initCode })
    const validUntil = Math.floor(Date.now() / 1000) + 300
    const hash = await chain.publicClient.readContract({
      address: chain.addresses.verifyingPaymaster,
      abi: verifyingPaymasterAbi,
      functionName: 'getHash',
      args: [op, paymasterId, validUntil, 0],
    })
    const signature = await chain.paymasterSigner.signMessage({ message: { raw: hash } })
    op.paymasterAndData = concat([
      chain.addresses.verifyingPaymaster,
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'uint48' }, { type: 'uint48' }, { type: 'bytes' }],
        [paymasterId, validUntil, 0, signature],
      ),
    ])
    op.signature = await signSmartAccountOp(chain, op, owner)
    const frames = await expectNativeToMatch(op)
    expect(frames.some((frame) => frame.target === chain.addresses.verifyingPaymaster.toLowerCase())).toBe(
      true,
    )
  })

  it('record the banned opcode and the foreign storage read the JavaScript tracer records', async () => {
    const account = await deployRuleTestContracts(chain)
    await account.setMode(1)
    const timestamp = await expectNativeToMatch(await ruleTestOperation(account.address))
    expect(timestamp.some((frame) => frame.opcodes.TIMESTAMP === 1)).toBe(true)
    await account.setMode(2)
    const foreign = await expectNativeToMatch(await ruleTestOperation(account.address))
    expect(foreign.some((frame) => Object.keys(frame.access).length > 1)).toBe(true)
  })

  it("decide an operation that follows the rules and refuse a banned opcode on their own; a storage violation is confirmed on the struct log with stacks, and every verdict is the JavaScript tracer's", async () => {
    const account = await deployRuleTestContracts(chain)
    const operation = () => ruleTestOperation(account.address)
    const simulate = async () =>
      simulateValidationWithRules({
        chain,
        entryPoint: entryPointV06,
        userOperation: await operation(),
        safeMode: true,
        gas: SIMULATION_GAS,
      })
    /** The rules the JavaScript tracer's trace of the same operation breaks. */
    const javascriptVerdict = async () => {
      const { javascript } = await traceBothWays(await operation())
      const result = entryPointV06.decodeValidationOutput(javascript.output as Hex)
      return checkValidationRules({
        trace: javascript,
        entities: entryPointV06.readEntities(await operation()),
        entryPoint: chain.addresses.entryPoint,
        stakes: { sender: result.senderInfo, factory: result.factoryInfo, paymaster: result.paymasterInfo },
        paymasterContext: result.returnInfo.paymasterContext,
      })
    }
    const clean = await simulate()
    expect(clean).toMatchObject({ tracer: 'native', violations: [] })

    await account.setMode(1)
    const banned = await simulate()
    expect(banned.tracer).toBe('native')
    expect(banned.violations.map((v) => v.rule)).toEqual(['OP-011'])
    expect(banned.violations).toEqual(await javascriptVerdict())

    await account.setMode(2)
    const foreign = await simulate()
    expect(foreign.tracer).toBe('native')
    expect(foreign.violations.map((v) => v.rule)).toEqual(['STO-033'])
    expect(foreign.violations).toEqual(await javascriptVerdict())
  })
})
