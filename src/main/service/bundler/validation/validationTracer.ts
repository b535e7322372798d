import type { Address, Hex } from 'viem'

/** Storage slots one validation frame touched in one contract. */
export type StorageAccess = { reads: Record<Hex, true>; writes: Record<Hex, true> }

/** A CALL-family opcode executed inside a validation frame. */
export type TracedCall = { opcode: string; to: Address; selector: Hex; withValue: boolean }

/**
 * What the EntryPoint's validation phase did inside one top-level call it made (the factory via SenderCreator,
 * the account's validateUserOp, the paymaster's validatePaymasterUserOp, or its own helper call).
 */
export type ValidationFrame = {
  /** Address the EntryPoint called. */
  target: Address
  /** 4-byte selector of that call. */
  selector: Hex
  /** Counts of the opcodes ERC-7562 restricts (GAS only when not directly followed by a call). */
  opcodes: Record<string, number>
  /** contract address → slots read / written (SLOAD/SSTORE/TLOAD/TSTORE, by storage owner). */
  access: Record<Address, StorageAccess>
  /** Addresses without code reached by a call or EXTCODEHASH/EXTCODECOPY, with the opcode. */
  codeless: Record<Address, string>
  calls: TracedCall[]
  /** A call inside it ran out of gas (or an SSTORE ran with less than 2300 gas left). */
  outOfGas: boolean
}

export type ValidationTrace = {
  frames: ValidationFrame[]
  /** Inputs of KECCAK256 (32 to 128 bytes): the preimages of mapping slots. */
  keccak: Hex[]
  /** Revert (or return) data of the top-level call: the EntryPoint's ValidationResult or FailedOp. */
  output: Hex | null
}

/**
 * Geth-API JavaScript tracer (runs in geth and anvil via `debug_traceCall`) that records, for each call the
 * EntryPoint makes at depth 1, what ERC-7562 restricts: opcodes, storage slots per contract, calls and the
 * code size of what they reach, out-of-gas steps; and every keccak preimage. Written in ES5: the tracer
 * engines do not take modern syntax.
 */
export const validationTracer = `{
  frames: [],
  frame: null,
  keccak: [],
  output: null,
  lastOp: '',
  restricted: {
    GASPRICE: 1, GASLIMIT: 1, DIFFICULTY: 1, PREVRANDAO: 1, TIMESTAMP: 1, BASEFEE: 1, BLOCKHASH: 1, NUMBER: 1,
    ORIGIN: 1, CREATE: 1, CREATE2: 1, COINBASE: 1, SELFDESTRUCT: 1, BLOBHASH: 1, BLOBBASEFEE: 1, BALANCE: 1,
    SELFBALANCE: 1, INVALID: 1
  },
  count: function (map, key) { map[key] = (map[key] || 0) + 1 },
  slice: function (log, offset, length) {
    if (length <= 0 || offset + length > log.memory.length()) return '0x'
    return toHex(log.memory.slice(offset, offset + length))
  },
  step: function (log, db) {
    var op = log.op.toString()
    var depth = log.getDepth()
    if (depth === 1) {
      if (op === 'CALL' || op === 'STATICCALL') {
        var argsAt = op === 'CALL' ? 3 : 2
        var inOffset = parseInt(log.stack.peek(argsAt).toString())
        var inLength = parseInt(log.stack.peek(argsAt + 1).toString())
        this.frame = {
          target: toHex(toAddress(log.stack.peek(1).toString(16))),
          selector: inLength >= 4 ? this.slice(log, inOffset, 4) : '0x',
          opcodes: {}, access: {}, codeless: {}, calls: [], outOfGas: false
        }
        this.frames.push(this.frame)
      } else if (op === 'REVERT' || op === 'RETURN') {
        this.output = this.slice(log, parseInt(log.stack.peek(0).toString()), parseInt(log.stack.peek(1).toString()))
      }
      this.lastOp = op
      return
    }
    var frame = this.frame
    if (frame === null) return
    // SSTORE needs more than the 2300 stipend; other out-of-gas failures show at the frame exit.
    if (op === 'SSTORE' && log.getGas() < 2300) frame.outOfGas = true
    if (this.lastOp === 'GAS' && op.indexOf('CALL') < 0) this.count(frame.opcodes, 'GAS')
    this.lastOp = op
    if (this.restricted[op] === 1) this.count(frame.opcodes, op)
    if (op === 'SLOAD' || op === 'SSTORE' || op === 'TLOAD' || op === 'TSTORE') {
      var owner = toHex(log.contract.getAddress())
      var slot = toHex(toWord(log.stack.peek(0).toString(16)))
      var access = frame.access[owner]
      if (!access) { access = { reads: {}, writes: {} }; frame.access[owner] = access }
      if (op === 'SLOAD' || op === 'TLOAD') access.reads[slot] = true
      else access.writes[slot] = true
      return
    }
    if (op === 'KECCAK256' || op === 'SHA3') {
      var length = parseInt(log.stack.peek(1).toString())
      if (length >= 32 && length <= 128) this.keccak.push(this.slice(log, parseInt(log.stack.peek(0).toString()), length))
      return
    }
    var isCall = op === 'CALL' || op === 'CALLCODE' || op === 'DELEGATECALL' || op === 'STATICCALL'
    if (isCall || op === 'EXTCODEHASH' || op === 'EXTCODECOPY') {
      var target = toAddress(log.stack.peek(isCall ? 1 : 0).toString(16))
      var targetHex = toHex(target)
      if (frame.codeless[targetHex] === undefined && parseInt(targetHex, 16) > 0xffff && db.getCode(target).length === 0) {
        frame.codeless[targetHex] = op
      }
      if (isCall) {
        var withValue = op === 'CALL' || op === 'CALLCODE'
        var at = withValue ? 3 : 2
        var callLength = parseInt(log.stack.peek(at + 1).toString())
        frame.calls.push({
          opcode: op,
          to: targetHex,
          selector: callLength >= 4 ? this.slice(log, parseInt(log.stack.peek(at).toString()), 4) : '0x',
          withValue: withValue && log.stack.peek(2).toString() !== '0'
        })
      }
    }
  },
  enter: function (frame) {},
  exit: function (result) {
    var error = result.getError()
    if (error && this.frame !== null && String(error).toLowerCase().indexOf('out of gas') >= 0) this.frame.outOfGas = true
  },
  fault: function (log, db) {},
  result: function (ctx, db) { return { frames: this.frames, keccak: this.keccak, output: this.output } }
}`
