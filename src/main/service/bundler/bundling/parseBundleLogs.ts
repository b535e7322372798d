import { type Address, decodeAbiParameters, type Hex, hexToBigInt, toEventSelector } from 'viem'
import { decodeRevertReason } from '../../chain/entryPoint/decodeRevert'

/** A log as JSON-RPC returns it. */
export type RpcLog = {
  address: Address
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockHash: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  removed?: boolean
}

export type UserOperationOutcome = {
  userOpHash: Hex
  sender: Address
  paymaster: Address
  nonce: bigint
  success: boolean
  actualGasCost: bigint
  actualGasUsed: bigint
  /** [first, last] index into the receipt's logs: this operation's logs, ending with its UserOperationEvent. */
  logRange: [number, number]
  /** The reason of a failed execution or postOp: its revert data decoded where it is a standard error, else raw. */
  revertReason: string | null
  /** The revert data of UserOperationRevertReason (execution) or PostOpRevertReason (postOp), as the event has it. */
  revert: { phase: 'execution' | 'postOp'; data: Hex } | null
}

export const USER_OPERATION_EVENT = toEventSelector(
  'UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)',
)
const USER_OPERATION_REVERT_REASON = toEventSelector(
  'UserOperationRevertReason(bytes32,address,uint256,bytes)',
)
const POST_OP_REVERT_REASON = toEventSelector('PostOpRevertReason(bytes32,address,uint256,bytes)')
const BEFORE_EXECUTION = toEventSelector('BeforeExecution()')

/**
 * Reads each UserOperation's result from a handleOps receipt. Its logs are those after the previous
 * operation's UserOperationEvent (or after BeforeExecution) up to and including its own UserOperationEvent.
 */
export function parseBundleLogs(logs: RpcLog[], entryPoint: Address): Map<Hex, UserOperationOutcome> {
  const ep = entryPoint.toLowerCase()
  const outcomes = new Map<Hex, UserOperationOutcome>()
  const reverts = new Map<Hex, NonNullable<UserOperationOutcome['revert']>>()
  let boundary = -1
  logs.forEach((log, index) => {
    if (log.address.toLowerCase() !== ep) return
    const topic = log.topics[0]
    if (topic === BEFORE_EXECUTION) {
      boundary = index
    } else if (topic === USER_OPERATION_REVERT_REASON || topic === POST_OP_REVERT_REASON) {
      const [, data] = decodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], log.data)
      reverts.set((log.topics[1] as Hex).toLowerCase() as Hex, {
        phase: topic === POST_OP_REVERT_REASON ? 'postOp' : 'execution',
        data,
      })
    } else if (topic === USER_OPERATION_EVENT) {
      const [nonce, success, actualGasCost, actualGasUsed] = readUserOperationEventData(log.data)
      const userOpHash = (log.topics[1] as Hex).toLowerCase() as Hex
      const revert = reverts.get(userOpHash) ?? null
      outcomes.set(userOpHash, {
        userOpHash,
        sender: topicAddress(log.topics[2]),
        paymaster: topicAddress(log.topics[3]),
        nonce,
        success,
        actualGasCost,
        actualGasUsed,
        logRange: [boundary + 1, index],
        revertReason: revert && readRevertReason(revert),
        revert,
      })
      boundary = index
    }
  })
  return outcomes
}

/** Today's reason without the contracts' ABIs (Error(string), Panic, else the raw data); the bundler decodes further. */
function readRevertReason({ phase, data }: NonNullable<UserOperationOutcome['revert']>): string | null {
  const reason = decodeRevertReason(data) ?? (data === '0x' ? null : data)
  return phase === 'postOp' ? `postOp reverted${reason ? `: ${reason}` : ''}` : reason
}

const USER_OPERATION_EVENT_DATA = [
  { type: 'uint256' },
  { type: 'bool' },
  { type: 'uint256' },
  { type: 'uint256' },
] as const

/**
 * UserOperationEvent's data (nonce, success, actualGasCost, actualGasUsed): four static words, read off their
 * offsets (one event per operation in every bundle); anything else goes through viem's decoder, which rejects it.
 */
function readUserOperationEventData(data: Hex): readonly [bigint, boolean, bigint, bigint] {
  const word = (i: number) => data.slice(2 + 64 * i, 66 + 64 * i)
  if (data.length !== 2 + 64 * 4 || !/^0{63}[01]$/.test(word(1)))
    return decodeAbiParameters(USER_OPERATION_EVENT_DATA, data)
  return [BigInt(`0x${word(0)}`), word(1).endsWith('1'), BigInt(`0x${word(2)}`), BigInt(`0x${word(3)}`)]
}

function topicAddress(topic: Hex | undefined): Address {
  return `0x${(topic ?? '0x').slice(-40).padStart(40, '0')}` as Address
}

export function logIndexOf(log: RpcLog): number {
  return Number(hexToBigInt(log.logIndex))
}
