import { type Address, encodeFunctionData } from 'viem'
import { type Chain, fundEth } from '../../../src/main/service/chain'
import type { UserOperationV06 } from '../../../src/main/service/entryPoint'
import { compileSolidityFixture, type SolidityArtifact } from '../../helpers/compileSolidityFixture'
import { createFundedWallet } from '../../helpers/createFundedWallet'
import type { TestService } from '../../helpers/startTestService'
import { callBundler, hex } from './bundlerTestKit'

type Artifact = SolidityArtifact

/** Compiles test/fixtures/contracts/RuleTestAccount.sol with solc 0.8.17 from node_modules (once per process). */
export function compileRuleTestContracts(): {
  registry: Artifact
  account: Artifact
  paymasterV07: Artifact
} {
  const contracts = compileSolidityFixture('RuleTestAccount.sol')
  const get = (name: string): Artifact => {
    const artifact = contracts[name]
    if (!artifact) throw new Error(`RuleTestAccount.sol has no contract ${name}`)
    return artifact
  }
  return { registry: get('Registry'), account: get('RuleTestAccount'), paymasterV07: get('TestPaymasterV07') }
}

export type RuleTestAccount = {
  address: Address
  registry: Address
  setMode: (mode: 0 | 1 | 2 | 3) => Promise<void>
  /** What validateUserOp returns from now on (0: valid always; a validity window). */
  setValidationData: (validationData: bigint) => Promise<void>
  /** An operation calling execute(to, value, 0x), with fixed generous limits, current fees and a dummy signature. */
  buildOperation: (params: { nonce: bigint; to: Address; value?: bigint }) => Promise<UserOperationV06>
}

export type RuleTestContracts = Pick<
  RuleTestAccount,
  'address' | 'registry' | 'setMode' | 'setValidationData'
>

/** Deploys a Registry and a RuleTestAccount (funded with 1 ETH) from a wallet of the test's own (createFundedWallet). */
export async function deployRuleTestContracts(
  chain: Chain,
  entryPoint: Address = chain.addresses.entryPoint,
): Promise<RuleTestContracts> {
  const { registry, account } = compileRuleTestContracts()
  const wallet = await createFundedWallet(chain)
  const deploy = async (artifact: Artifact, args: unknown[]) => {
    const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args })
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
    return receipt.contractAddress as Address
  }
  const registryAddress = await deploy(registry, [])
  const accountAddress = await deploy(account, [entryPoint, registryAddress])
  await fundEth(chain, accountAddress, 10n ** 18n)
  const write = async (functionName: string, value: bigint) => {
    const hash = await wallet.writeContract({
      address: accountAddress,
      abi: account.abi,
      functionName,
      args: [value],
    })
    await chain.publicClient.waitForTransactionReceipt({ hash })
  }
  return {
    address: accountAddress,
    registry: registryAddress,
    setMode: (mode) => write('setMode', BigInt(mode)),
    setValidationData: (validationData) => write('setValidationData', validationData),
  }
}

/** The rule-test contracts on the service's chain, with operations priced by the service's bundler. */
export async function deployRuleTestAccount(service: TestService): Promise<RuleTestAccount> {
  const contracts = await deployRuleTestContracts(service.chain as Chain)
  const { account } = compileRuleTestContracts()
  const accountAddress = contracts.address
  return {
    ...contracts,
    async buildOperation({ nonce, to, value = 1n }) {
      const { body } = await callBundler(service, 'biconomy_getGasFeeValues', [])
      return {
        sender: accountAddress,
        nonce,
        initCode: '0x',
        callData: encodeFunctionData({ abi: account.abi, functionName: 'execute', args: [to, value, '0x'] }),
        callGasLimit: 100_000n,
        verificationGasLimit: 150_000n,
        preVerificationGas: 60_000n,
        maxFeePerGas: BigInt(body.result.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(body.result.maxPriorityFeePerGas),
        paymasterAndData: '0x',
        signature: '0x',
      }
    },
  }
}

/** The operation as JSON-RPC params carry it (quantities as 0x-hex). */
export function toRpcOperation(op: UserOperationV06): Record<string, string> {
  return Object.fromEntries(Object.entries(op).map(([k, v]) => [k, typeof v === 'bigint' ? hex(v) : v]))
}

/** The rule-test contracts for EntryPoint v0.7 (or v0.8), with operations in their RPC form (quantities as 0x-hex). */
export async function deployRuleTestAccountV07(
  service: TestService,
  entryPoint: Address,
): Promise<
  RuleTestContracts & { buildRpcOperation: (nonce: bigint, to: Address) => Promise<Record<string, string>> }
> {
  const contracts = await deployRuleTestContracts(service.chain as Chain, entryPoint)
  const { account } = compileRuleTestContracts()
  return {
    ...contracts,
    async buildRpcOperation(nonce, to) {
      const { body } = await callBundler(service, 'biconomy_getGasFeeValues', [])
      return {
        sender: contracts.address,
        nonce: hex(nonce),
        callData: encodeFunctionData({ abi: account.abi, functionName: 'execute', args: [to, 1n, '0x'] }),
        callGasLimit: hex(100_000n),
        verificationGasLimit: hex(150_000n),
        preVerificationGas: hex(70_000n),
        maxFeePerGas: hex(BigInt(body.result.maxFeePerGas)),
        maxPriorityFeePerGas: hex(BigInt(body.result.maxPriorityFeePerGas)),
        signature: '0x',
      }
    },
  }
}

/** The test paymaster for `entryPoint` (v0.7 or v0.8), deployed, deposited (1 ETH) and staked (1 ETH, a day). */
export async function deployTestPaymasterV07(chain: Chain, entryPoint: Address) {
  const { paymasterV07 } = compileRuleTestContracts()
  const wallet = await createFundedWallet(chain)
  const hash = await wallet.deployContract({
    abi: paymasterV07.abi,
    bytecode: paymasterV07.bytecode,
    args: [entryPoint],
  })
  const address = (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address
  const write = async (functionName: string, args: unknown[], value = 0n) => {
    const tx = await wallet.writeContract({ address, abi: paymasterV07.abi, functionName, args, value })
    await chain.publicClient.waitForTransactionReceipt({ hash: tx })
  }
  await write('deposit', [], 10n ** 18n)
  await write('stake', [86_400], 10n ** 18n)
  return { address, setMode: (mode: 0 | 1 | 2) => write('setMode', [BigInt(mode)]) }
}
