import { type Abi, type Address, encodeFunctionData, getAddress, type Hex, toHex } from 'viem'
import type { Chain } from '../../../../src/main/service/chain'
import { compileSolidityFixture } from '../../../helpers/compileSolidityFixture'
import { createFundedWallet, type FundedWallet } from '../../../helpers/createFundedWallet'
import type { TestService } from '../../../helpers/startTestService'
import { callBundler, hex } from '../../bundler/bundlerTestKit'

/** The contracts of test/fixtures/contracts/MempoolRuleContracts.sol. */
export type MempoolRuleContract = 'SpecWallet' | 'FakeWalletToken' | 'SpecPaymaster' | 'SpecAccountFactory'

export type DeployedContract = {
  address: Address
  abi: Abi
  /** Sends a transaction calling `functionName` from the kit's deployer and waits for it. */
  write: (functionName: string, args?: unknown[], value?: bigint) => Promise<void>
  read: (functionName: string, args?: unknown[]) => Promise<unknown>
  encode: (functionName: string, args?: unknown[]) => Hex
}

/** An operation in its v0.8 RPC form (quantities as 0x-hex), as the suite's UserOperation class builds it. */
export type RpcOperation = Record<string, string>

/**
 * What the scenarios of the ERC-4337 test suite (eth-infinitism/bundler-spec-tests) need of a service: its contracts
 * deployed from a funded account of the kit's own, operations for EntryPoint v0.8 with the suite's defaults, and the
 * debug methods (never from the service's executor: see createFundedWallet).
 */
export function createMempoolRuleKit(service: TestService) {
  const chain = service.chain as Chain
  const entryPoint = chain.addresses.entryPointV08
  const contracts = compileSolidityFixture('MempoolRuleContracts.sol')
  let wallet: Promise<FundedWallet> | undefined
  /** The kit's own funded wallet, made on first use. */
  const deployerWallet = () => {
    wallet ??= createFundedWallet(chain)
    return wallet
  }
  /** A transaction from the kit's deployer, waited for; throws when it reverts. */
  const transact = async (to: Address, value = 0n, data: Hex = '0x') =>
    (await deployerWallet()).transact(to, { value, data })

  const attach = (name: MempoolRuleContract, address: Address): DeployedContract => {
    const abi = (contracts[name] as { abi: Abi }).abi
    return {
      address,
      abi,
      async write(functionName, args = [], value = 0n) {
        await transact(address, value, encodeFunctionData({ abi, functionName, args })).catch(() => {
          throw new Error(`${name}.${functionName} reverted`)
        })
      },
      read: (functionName, args = []) =>
        chain.publicClient.readContract({ address, abi, functionName, args }),
      encode: (functionName, args = []) => encodeFunctionData({ abi, functionName, args }),
    }
  }

  const call = async (method: string, params: unknown[] = []) =>
    (await callBundler(service, method, params)).body

  return {
    chain,
    entryPoint,
    attach,
    transact,

    /** Deploys `name` from the kit's deployer; `fund` wei are sent to it afterwards (its receive() may deposit them). */
    async deploy(
      name: MempoolRuleContract,
      args: unknown[] = [],
      fund = 10n ** 18n,
    ): Promise<DeployedContract> {
      const artifact = contracts[name] as { abi: Abi; bytecode: Hex }
      const hash = await (await deployerWallet()).deployContract({
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args,
      } as never)
      const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
      const deployed = attach(name, getAddress(receipt.contractAddress as Address))
      if (fund > 0n) await transact(deployed.address, fund)
      return deployed
    },

    /** Stakes the contract on EntryPoint v0.8 as the suite does: 1 ETH, 2 seconds of unstake delay. */
    stake: (contract: DeployedContract, unstakeDelaySec = 2) =>
      contract.write('addStake', [entryPoint, unstakeDelaySec], 10n ** 18n),

    /** The suite's UserOperation defaults (nonce 0, generous limits), with the service's current fees. */
    async buildOperation(fields: Partial<RpcOperation> & { sender: Address }): Promise<RpcOperation> {
      const fees = (await call('biconomy_getGasFeeValues')).result
      const op: RpcOperation = {
        nonce: '0x0',
        callData: '0x',
        callGasLimit: hex(300_000n),
        verificationGasLimit: hex(1_000_000n),
        preVerificationGas: hex(400_000n),
        maxFeePerGas: hex(BigInt(fees.maxFeePerGas)),
        maxPriorityFeePerGas: hex(BigInt(fees.maxPriorityFeePerGas)),
        signature: '0x',
        ...fields,
      }
      if (op.paymaster) {
        op.paymasterVerificationGasLimit ??= hex(100_000n)
        op.paymasterPostOpGasLimit ??= hex(100_000n)
        op.paymasterData ??= toHex('nothing')
      }
      if (op.factory) op.factoryData ??= '0x'
      return op
    },

    /** eth_sendUserOperation on EntryPoint v0.8: the JSON-RPC body (`result` or `error`). */
    send: (op: RpcOperation) => call('eth_sendUserOperation', [op, entryPoint]),
    /** The pending operations of EntryPoint v0.8 in their RPC form, in arrival order (the suite's dump_mempool). */
    async pendingOperations(): Promise<RpcOperation[]> {
      return (await call('debug_bundler_dumpMempool', [entryPoint])).result
    },
    /** The pending operations of EntryPoint v0.8 as `sender:nonce` strings, in arrival order. */
    async dumpMempool(): Promise<string[]> {
      const { result } = await call('debug_bundler_dumpMempool', [entryPoint])
      return (result as RpcOperation[]).map(operationKey)
    },
    /** The reputation of `address` on EntryPoint v0.8, with every field read as the suite reads it. */
    async reputationOf(address: Address) {
      const { result } = await call('debug_bundler_dumpReputation', [entryPoint])
      const entry = (result as Record<string, string>[]).find(
        (e) => e.address?.toLowerCase() === address.toLowerCase(),
      )
      return {
        opsSeen: Number(entry?.opsSeen ?? 0),
        opsIncluded: Number(entry?.opsIncluded ?? 0),
        status: Number(entry?.status ?? 0),
      }
    },
    setReputation: (address: Address, opsSeen: number, opsIncluded: number) =>
      call('debug_bundler_setReputation', [
        [{ address, opsSeen: hex(BigInt(opsSeen)), opsIncluded: hex(BigInt(opsIncluded)) }],
        entryPoint,
      ]),
    clearState: () => call('debug_bundler_clearState'),
    setManualBundling: () => call('debug_bundler_setBundlingMode', ['manual']),
    sendBundleNow: () => call('debug_bundler_sendBundleNow'),
    receiptOf: async (userOpHash: Hex) => (await call('eth_getUserOperationReceipt', [userOpHash])).result,
    call,
  }
}

export type MempoolRuleKit = ReturnType<typeof createMempoolRuleKit>

/** `sender:nonce` as the kit's dumpMempool lists an operation. */
export function operationKey(op: RpcOperation): string {
  return `${op.sender}:${BigInt(op.nonce as string)}`
}
