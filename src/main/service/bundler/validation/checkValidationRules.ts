import { type Address, getAddress, type Hex, hexToBigInt, keccak256, pad, toFunctionSelector } from 'viem'
import type { UserOperationEntities } from '../../entryPoint/types'
import { ASSOCIATED_SLOT_RANGE } from './keccakPreimages'
import type { ValidationFrame, ValidationTrace } from './validationTracer'

export type StakeInfo = { stake: bigint; unstakeDelaySec: bigint }

export type ValidationEntity = 'account' | 'factory' | 'paymaster'

export type RuleViolation = {
  /** ERC-7562 rule id, e.g. `OP-011`, `STO-021`. */
  rule: string
  entity: ValidationEntity
  address: Address
  message: string
}

export type CheckValidationRulesParameters = {
  trace: ValidationTrace
  /** The operation's sender, factory and paymaster (lowercase). */
  entities: UserOperationEntities
  entryPoint: Address
  stakes: { sender: StakeInfo; factory: StakeInfo; paymaster: StakeInfo }
  /** Context the paymaster returned from validatePaymasterUserOp. */
  paymasterContext: Hex
  /** Minimum stake and unstake delay that count as "staked" (ERC-7562: MIN_UNSTAKE_DELAY = 1 day). */
  minStake?: bigint
  minUnstakeDelaySec?: bigint
}

/** Opcodes no entity may use during validation (OP-011); BALANCE/SELFBALANCE only when staked (OP-080). */
const BANNED_OPCODES = [
  'GASPRICE',
  'GASLIMIT',
  'DIFFICULTY',
  'TIMESTAMP',
  'BASEFEE',
  'BLOCKHASH',
  'NUMBER',
  'ORIGIN',
  'GAS',
  'COINBASE',
  'SELFDESTRUCT',
  'BLOBHASH',
  'BLOBBASEFEE',
  'INVALID',
]
const STAKED_ONLY_OPCODES = ['BALANCE', 'SELFBALANCE']
const CREATE_SENDER = toFunctionSelector('createSender(bytes)')
/** The validation calls of every EntryPoint version: v0.6 `UserOperation`, v0.7/v0.8 `PackedUserOperation`. */
const VALIDATE_USER_OP = new Set([
  toFunctionSelector(
    'validateUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes),bytes32,uint256)',
  ),
  toFunctionSelector(
    'validateUserOp((address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes),bytes32,uint256)',
  ),
])
const VALIDATE_PAYMASTER_USER_OP = new Set([
  toFunctionSelector(
    'validatePaymasterUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes),bytes32,uint256)',
  ),
  toFunctionSelector(
    'validatePaymasterUserOp((address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes),bytes32,uint256)',
  ),
])
const DEPOSIT_TO = toFunctionSelector('depositTo(address)')

/** ERC-7562's "staked": at least this stake (any, on a local chain) and MIN_UNSTAKE_DELAY (one day). */
export const MIN_STAKE_WEI = 1n
export const MIN_UNSTAKE_DELAY_SEC = 86_400n

/**
 * Applies the ERC-7562 validation rules to a traced simulateValidation: banned opcodes (OP-011, OP-080), out of
 * gas (OP-020), contract creation (OP-031, OP-032, EREP-060), code-less addresses (OP-041, OP-042), access to the
 * EntryPoint (OP-051..054), value calls (OP-061), storage access (STO-010..033) and an unstaked paymaster returning
 * a context (EREP-050). Frames are the entities' as the reference bundler attributes them: the factory's frame
 * (SenderCreator's createSender) holds the account's constructor too; what a frame's code does in the EntryPoint
 * (depositTo, the fallback) is the EntryPoint's, so its storage there is not checked. Messages read as the
 * reference bundler's ("account uses banned opcode: TIMESTAMP"). Pure: everything comes from the trace.
 */
export function checkValidationRules(params: CheckValidationRulesParameters): RuleViolation[] {
  const { trace } = params
  const minStake = params.minStake ?? MIN_STAKE_WEI
  const minDelay = params.minUnstakeDelaySec ?? MIN_UNSTAKE_DELAY_SEC
  const isStaked = (info: StakeInfo) => info.stake >= minStake && info.unstakeDelaySec >= minDelay
  const { sender, factory, paymaster } = params.entities
  const entryPoint = params.entryPoint.toLowerCase() as Address
  const staked: Record<ValidationEntity, boolean> = {
    account: isStaked(params.stakes.sender),
    factory: isStaked(params.stakes.factory),
    paymaster: isStaked(params.stakes.paymaster),
  }
  const associated = createAssociationCheck(trace.keccak)
  const violations: RuleViolation[] = []

  for (const frame of trace.frames) {
    const entity = classifyFrame(frame, sender, paymaster)
    if (!entity) continue
    const address = (entity === 'account' ? sender : entity === 'factory' ? factory : paymaster) ?? sender
    const report = (rule: string, message: string, { unstaked = false } = {}) =>
      violations.push({
        rule,
        entity,
        address: getAddress(address),
        message: `${unstaked ? 'unstaked ' : ''}${entity} ${message} (${entity} ${getAddress(address)})`,
      })

    for (const opcode of BANNED_OPCODES) {
      if (frame.opcodes[opcode]) report('OP-011', `uses banned opcode: ${opcode}`)
    }
    for (const opcode of STAKED_ONLY_OPCODES) {
      if (frame.opcodes[opcode] && !staked[entity])
        report('OP-080', `uses banned opcode: ${opcode}, allowed only for a staked entity`, {
          unstaked: true,
        })
    }
    for (const create of frame.creates) {
      const from = create.from.toLowerCase()
      // OP-032: with a factory, the sender itself may CREATE; EREP-060: with a staked factory, the sender or the
      // factory may CREATE and CREATE2; OP-031: the factory's frame creates the sender.
      const allowed =
        (factory !== null &&
          create.opcode === 'CREATE' &&
          from === sender &&
          (entity === 'account' || entity === 'factory')) ||
        (factory !== null && staked.factory && (from === sender || from === factory)) ||
        (entity === 'factory' && create.to.toLowerCase() === sender)
      if (!allowed)
        report(create.opcode === 'CREATE2' ? 'OP-031' : 'OP-011', `uses banned opcode: ${create.opcode}`)
    }
    if (frame.outOfGas) report('OP-020', 'runs out of gas during validation')

    for (const [target, opcode] of Object.entries(frame.codeless)) {
      if (target.toLowerCase() === sender) continue // OP-042
      report('OP-041', `accesses ${getAddress(target)}, which has no code, with ${opcode}`)
    }
    for (const opcode of new Set(frame.entryPointCode)) {
      report('OP-054', `accesses the EntryPoint's code with ${opcode}; only EXTCODESIZE ISZERO is allowed`)
    }
    for (const call of frame.calls) {
      const to = call.to.toLowerCase()
      if (to === entryPoint) {
        // OP-052: depositTo from anyone; OP-053: the fallback from the sender (its constructor, in the factory's
        // frame, included) or from what the account's validation calls.
        const fallback =
          call.selector === '0x' && (entity === 'account' || call.from.toLowerCase() === sender)
        if (call.selector !== DEPOSIT_TO && !fallback)
          report(
            'OP-054',
            `calls the EntryPoint (${call.selector}); only depositTo and the sender's deposit through its fallback are allowed`,
          )
      } else if (call.withValue) {
        report('OP-061', `sends value to ${getAddress(to)}; only the EntryPoint may receive value`)
      }
    }

    for (const [contract, access] of Object.entries(frame.access)) {
      const owner = contract.toLowerCase() as Address
      // STO-010: the account's own storage; the EntryPoint's storage is what its own code (depositTo, the
      // fallback: OP-052/053) does, which the calls into it are checked for.
      if (owner === sender || owner === entryPoint) continue
      const written = new Set(Object.keys(access.writes))
      const entityAddress = entity === 'factory' ? factory : entity === 'paymaster' ? paymaster : sender
      for (const slot of new Set([...Object.keys(access.reads), ...written])) {
        const ofSender = associated(slot as Hex, sender)
        // STO-021: the sender's associated storage, once it exists; STO-022: while it is deployed, with a staked factory.
        if (ofSender && (factory === null || staked.factory)) continue
        // STO-031/032/033: a staked entity may use its own storage and its associated storage anywhere, and read any.
        const ownStorage = owner === entityAddress
        const ofEntity = entityAddress !== null && associated(slot as Hex, entityAddress)
        const readOnly = !written.has(slot)
        if (staked[entity] && (ownStorage || ofEntity || readOnly)) continue
        const rule = ofSender ? 'STO-022' : ownStorage ? 'STO-031' : ofEntity ? 'STO-032' : 'STO-033'
        const what = `${readOnly ? 'reads' : 'writes'} slot ${slot} of ${getAddress(owner)}`
        if (ofSender || ownStorage || ofEntity || readOnly)
          report(rule, `${what}, allowed only ${ofSender ? 'with a staked factory or ' : ''}when staked`, {
            unstaked: true,
          })
        else report(rule, `${what}, which is not associated with the sender`)
      }
    }
  }
  if (paymaster && params.paymasterContext !== '0x' && !staked.paymaster) {
    violations.push({
      rule: 'EREP-050',
      entity: 'paymaster',
      address: getAddress(paymaster),
      message: `unstaked paymaster returns a context (paymaster ${getAddress(paymaster)})`,
    })
  }
  return violations
}

function classifyFrame(
  frame: ValidationFrame,
  sender: Address,
  paymaster: Address | null,
): ValidationEntity | null {
  const target = frame.target.toLowerCase()
  if (frame.selector === CREATE_SENDER) return 'factory'
  if (target === sender && VALIDATE_USER_OP.has(frame.selector)) return 'account'
  if (paymaster && target === paymaster && VALIDATE_PAYMASTER_USER_OP.has(frame.selector)) return 'paymaster'
  return null
}

/**
 * `associated(slot, address)`: the slot is the address itself, or within 128 slots of keccak(address ‖ x)
 * for a keccak preimage seen in the trace (a mapping keyed by the address).
 */
function createAssociationCheck(keccakInputs: Hex[]): (slot: Hex, address: Address) => boolean {
  const bases = new Map<string, bigint[]>()
  for (const input of keccakInputs) {
    if (input.length < 66) continue
    const firstWord = input.slice(2, 66)
    if (!firstWord.startsWith('000000000000000000000000')) continue
    const key = `0x${firstWord.slice(24)}`
    let list = bases.get(key)
    if (!list) {
      list = []
      bases.set(key, list)
    }
    list.push(hexToBigInt(keccak256(input)))
  }
  return (slot, address) => {
    const value = hexToBigInt(slot)
    if (slot.toLowerCase() === pad(address).toLowerCase()) return true
    for (const base of bases.get(address.toLowerCase()) ?? []) {
      if (value >= base && value < base + ASSOCIATED_SLOT_RANGE) return true
    }
    return false
  }
}
