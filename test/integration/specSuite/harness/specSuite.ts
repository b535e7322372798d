import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  toHex,
} from 'viem'
import { entryPoint07Address, entryPoint08Address } from 'viem/account-abstraction'
import type { Chain } from '../../../../src/main/service/chain'
import { createFundedWallet } from '../../../helpers/createFundedWallet'
import { getSharedTestService } from '../../../helpers/sharedTestService'
import type { TestService } from '../../../helpers/startTestService'
import { callBundler } from '../../bundler/bundlerTestKit'
import { compileSpecContracts, type SpecContractName } from './compileSpecContracts'

/** The EntryPoint versions the suite's scenarios run on: v0.8 (the suite's own) and its v0.7 twin. */
export type SpecVersion = '0.7' | '0.8'
export const SPEC_ENTRY_POINTS: Record<SpecVersion, Address> = {
  '0.7': entryPoint07Address,
  '0.8': entryPoint08Address,
}

/**
 * Stake and unstake delay of a staked entity. The suite stakes with a 2-second delay; Opstation counts an entity as
 * staked from one day (ERC-7562's MIN_UNSTAKE_DELAY), so the scenarios stake with that.
 */
export const STAKE_WEI = 10n ** 18n
export const UNSTAKE_DELAY_SEC = 86_400
/** What each deployed entity gets (an account's balance, a paymaster's deposit), and a new sender's deposit. */
export const FUND_WEI = 10n ** 18n

/** A v0.7/v0.8 operation in its RPC fields; what is left out takes the suite's defaults. */
export type SpecUserOperation = {
  sender: Address
  nonce?: bigint
  factory?: Address
  factoryData?: Hex
  callData?: Hex
  callGasLimit?: bigint
  verificationGasLimit?: bigint
  preVerificationGas?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  signature?: Hex
  paymaster?: Address
  paymasterData?: Hex
  paymasterVerificationGasLimit?: bigint
  paymasterPostOpGasLimit?: bigint
}

export type RpcReply = { status: number; body: any }

const STAKE_ABI = parseAbi(['function addStake(address stakeManager, uint32 unstakeDelaySec) payable'])
const ENTRY_POINT_ABI = parseAbi([
  'function depositTo(address account) payable',
  'function getDepositInfo(address account) view returns ((uint256 deposit, bool staked, uint112 stake, uint32 unstakeDelaySec, uint48 withdrawTime) info)',
])

export type SpecSuite = {
  service: TestService
  version: SpecVersion
  entryPoint: Address
  /** Deploys a spec contract (with the EntryPoint as its constructor argument, if it takes one). */
  deploy: (name: SpecContractName, value?: bigint) => Promise<Address>
  /** The suite's deploy_and_deposit: deployed, sent FUND_WEI (a paymaster deposits it), and staked if asked. */
  deployEntity: (name: SpecContractName, options: { staked: boolean }) => Promise<Address>
  /** An address a spec contract's view returns (e.g. SpecAccount's `helper`). */
  readAddress: (contract: Address, name: SpecContractName, view: string) => Promise<Address>
  /** Stakes STAKE_WEI for `entity` at the EntryPoint, through its addStake. */
  stake: (entity: Address) => Promise<void>
  /** The factoryData of `create(salt, rule, entryPoint)` on SpecFactory or SpecAccountFactory. */
  factoryData: (factory: 'SpecFactory' | 'SpecAccountFactory', rule: string, salt?: bigint) => Hex
  /** The sender `factoryData` creates (the factory's answer to an eth_call), with FUND_WEI deposited for it. */
  prepareSender: (factory: Address, factoryData: Hex) => Promise<Address>
  /** eth_sendUserOperation through the bundler's JSON-RPC. */
  send: (op: SpecUserOperation) => Promise<RpcReply>
  /** debug_bundler_clearState: the suite runs it before each scenario. */
  clearState: () => Promise<void>
}

/**
 * The scenarios' environment on the worker's shared service, for one EntryPoint version: a funded deployer of its
 * own (the bundler's executor keeps its nonces to itself), the compiled spec contracts, and the suite's operation
 * defaults. Each operation gets a nonce key of its own and each created sender a salt of its own, so the scenarios
 * of a file share their deployments although the bundler mines what it accepts.
 */
export async function openSpecSuite(version: SpecVersion): Promise<SpecSuite> {
  const service = await getSharedTestService()
  const chain = service.chain as Chain
  const entryPoint = SPEC_ENTRY_POINTS[version]
  const artifacts = compileSpecContracts()
  const wallet = await createFundedWallet(chain, 1000n * 10n ** 18n)
  const deployer = wallet.account
  // Receipts polled every 10 ms: the suite's scenarios wait for hundreds of transactions.
  const publicClient: PublicClient = createPublicClient({
    transport: http(service.info().rpcUrl as string),
    pollingInterval: 10,
  })
  let saltCounter = BigInt(Math.floor(Math.random() * 2 ** 40)) << 16n

  const confirm = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
    return receipt
  }
  const transact = async (to: Address, data: Hex, value = 0n) =>
    confirm(await wallet.sendTransaction({ account: deployer, chain: wallet.chain, to, data, value }))

  const suite: SpecSuite = {
    service,
    version,
    entryPoint,
    async deploy(name, value = 0n) {
      const { abi, bytecode } = artifacts[name]
      const takesEntryPoint = abi.some((item) => item.type === 'constructor' && item.inputs.length === 1)
      const hash = await wallet.deployContract({
        account: deployer,
        chain: wallet.chain,
        abi,
        bytecode,
        args: takesEntryPoint ? [entryPoint] : [],
        value,
      })
      return (await confirm(hash)).contractAddress as Address
    },
    async deployEntity(name, { staked }) {
      const address = await suite.deploy(name)
      await transact(address, '0x', FUND_WEI)
      if (staked) await suite.stake(address)
      return address
    },
    async readAddress(contract, name, view) {
      return (await publicClient.readContract({
        address: contract,
        abi: artifacts[name].abi,
        functionName: view,
      })) as Address
    },
    async stake(entity) {
      const data = encodeFunctionData({
        abi: STAKE_ABI,
        functionName: 'addStake',
        args: [entryPoint, UNSTAKE_DELAY_SEC],
      })
      await transact(entity, data, STAKE_WEI)
      const info = await publicClient.readContract({
        address: entryPoint,
        abi: ENTRY_POINT_ABI,
        functionName: 'getDepositInfo',
        args: [entity],
      })
      if (!info.staked) throw new Error(`${entity} is not staked after addStake`)
    },
    factoryData(factory, rule, salt) {
      saltCounter += 1n
      return encodeFunctionData({
        abi: artifacts[factory].abi,
        functionName: 'create',
        args: [salt ?? saltCounter, rule, entryPoint],
      })
    },
    async prepareSender(factory, factoryData) {
      const { data } = await publicClient.call({ to: factory, data: factoryData })
      if (!data || data.length < 66) throw new Error(`${factory} returned no sender for ${factoryData}`)
      const sender = `0x${data.slice(26, 66)}` as Address
      await transact(
        entryPoint,
        encodeFunctionData({ abi: ENTRY_POINT_ABI, functionName: 'depositTo', args: [sender] }),
        FUND_WEI,
      )
      return sender
    },
    send: (op) => callBundler(service, 'eth_sendUserOperation', [toRpcOperation(op), entryPoint]),
    async clearState() {
      const reply = await callBundler(service, 'debug_bundler_clearState', [])
      if (reply.body.error) throw new Error(`debug_bundler_clearState: ${reply.body.error.message}`)
    },
  }
  return suite
}

/** The suite's UserOperation defaults, in RPC form; the nonce, unless given, is sequence 0 of a new random key. */
export function toRpcOperation(op: SpecUserOperation): Record<string, Hex> {
  const rpc: Record<string, Hex> = {
    sender: op.sender,
    nonce: toHex(op.nonce ?? randomNonceKey() << 64n),
    callData: op.callData ?? '0x',
    callGasLimit: toHex(op.callGasLimit ?? 300_000n),
    verificationGasLimit: toHex(op.verificationGasLimit ?? 1_000_000n),
    preVerificationGas: toHex(op.preVerificationGas ?? 400_000n),
    maxFeePerGas: toHex(op.maxFeePerGas ?? 4_000_000_000n),
    maxPriorityFeePerGas: toHex(op.maxPriorityFeePerGas ?? 3_000_000_000n),
    signature: op.signature ?? '0x',
  }
  if (op.factory) {
    rpc.factory = op.factory
    rpc.factoryData = op.factoryData ?? '0x'
  }
  if (op.paymaster) {
    rpc.paymaster = op.paymaster
    rpc.paymasterData = op.paymasterData ?? '0x'
    rpc.paymasterVerificationGasLimit = toHex(op.paymasterVerificationGasLimit ?? 100_000n)
    rpc.paymasterPostOpGasLimit = toHex(op.paymasterPostOpGasLimit ?? 100_000n)
  }
  return rpc
}

function randomNonceKey(): bigint {
  return BigInt(Math.floor(Math.random() * 2 ** 48)) * 2n ** 32n + BigInt(Math.floor(Math.random() * 2 ** 32))
}

/** A rule name as the bytes an operation carries it in (signature, paymasterData). */
export function ruleBytes(rule: string): Hex {
  return toHex(new TextEncoder().encode(rule))
}
