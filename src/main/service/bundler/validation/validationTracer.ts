import type { Address, Hex } from 'viem'

/** Storage slots one validation frame touched in one contract. */
export type StorageAccess = { reads: Record<Hex, true>; writes: Record<Hex, true> }

/** A CALL-family opcode executed inside a validation frame, `from` the contract whose code (or storage) made it. */
export type TracedCall = { opcode: string; from: Address; to: Address; selector: Hex; withValue: boolean }

/** A CREATE or CREATE2 inside a validation frame: the creating contract and the address it creates. */
export type TracedCreate = { opcode: 'CREATE' | 'CREATE2'; from: Address; to: Address }

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
  /** Addresses without code reached by a call or an EXTCODESIZE/EXTCODEHASH/EXTCODECOPY, with the opcode. */
  codeless: Record<Address, string>
  /** EXTCODE* opcodes run on the EntryPoint, but for EXTCODESIZE directly followed by ISZERO (OP-051). */
  entryPointCode: string[]
  calls: TracedCall[]
  creates: TracedCreate[]
  /** A call inside it ran out of gas (or an SSTORE ran with less than 2300 gas left). */
  outOfGas: boolean
}

/** A frame before anything ran in it. */
export function createValidationFrame(target: Address, selector: Hex): ValidationFrame {
  return {
    target,
    selector,
    opcodes: {},
    access: {},
    codeless: {},
    entryPointCode: [],
    calls: [],
    creates: [],
    outOfGas: false,
  }
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
 * code size of what they and the EXTCODE* opcodes reach, the contracts they create, out-of-gas steps; and every
 * keccak preimage. Written in ES5: the tracer
 * engines do not take modern syntax.
 */
export const validationTracer = `{
  frames: [],
  frame: null,
  keccak: [],
  output: null,
  lastOp: 0,
  entryPoint: null,
  sizeOfEntryPoint: false,
  restricted: {
    58: 'GASPRICE', 69: 'GASLIMIT', 68: 'DIFFICULTY', 66: 'TIMESTAMP', 72: 'BASEFEE', 64: 'BLOCKHASH', 67: 'NUMBER',
    50: 'ORIGIN', 65: 'COINBASE', 255: 'SELFDESTRUCT', 73: 'BLOBHASH', 74: 'BLOBBASEFEE', 49: 'BALANCE',
    71: 'SELFBALANCE', 254: 'INVALID'
  },
  extcode: { 59: 'EXTCODESIZE', 60: 'EXTCODECOPY', 63: 'EXTCODEHASH' },
  calls: { 241: 'CALL', 242: 'CALLCODE', 244: 'DELEGATECALL', 250: 'STATICCALL' },
  count: function (map, key) { map[key] = (map[key] || 0) + 1 },
  slice: function (log, offset, length) {
    if (length <= 0 || offset + length > log.memory.length()) return '0x'
    return toHex(log.memory.slice(offset, offset + length))
  },
  step: function (log, db) {
    // Opcodes as numbers: op.toString() costs more than the rest of a step in anvil's engine.
    var op = log.op.toNumber()
    if (this.sizeOfEntryPoint) {
      // OP-051: EXTCODESIZE ISZERO on the EntryPoint (is there code to deposit to?) is allowed.
      this.sizeOfEntryPoint = false
      if (op !== 21 && this.frame !== null) this.frame.entryPointCode.push('EXTCODESIZE')
    }
    if (log.getDepth() === 1) {
      if (this.entryPoint === null) this.entryPoint = toHex(log.contract.getAddress())
      if (op === 241 || op === 250) {
        var argsAt = op === 241 ? 3 : 2
        var inOffset = parseInt(log.stack.peek(argsAt).toString())
        var inLength = parseInt(log.stack.peek(argsAt + 1).toString())
        this.frame = {
          target: toHex(toAddress(log.stack.peek(1).toString(16))),
          selector: inLength >= 4 ? this.slice(log, inOffset, 4) : '0x',
          opcodes: {}, access: {}, codeless: {}, entryPointCode: [], calls: [], creates: [], outOfGas: false
        }
        this.frames.push(this.frame)
      } else if (op === 253 || op === 243) {
        this.output = this.slice(log, parseInt(log.stack.peek(0).toString()), parseInt(log.stack.peek(1).toString()))
      }
      this.lastOp = op
      return
    }
    var frame = this.frame
    if (frame === null) return
    // GAS is allowed only directly before a call.
    if (this.lastOp === 90 && this.calls[op] === undefined) this.count(frame.opcodes, 'GAS')
    this.lastOp = op
    var restricted = this.restricted[op]
    if (restricted !== undefined) this.count(frame.opcodes, restricted)
    if (op === 84 || op === 85 || op === 92 || op === 93) {
      // SLOAD, SSTORE, TLOAD, TSTORE; SSTORE needs more than the 2300 stipend (out-of-gas otherwise shows at exit).
      if (op === 85 && log.getGas() < 2300) frame.outOfGas = true
      var owner = toHex(log.contract.getAddress())
      var slot = toHex(toWord(log.stack.peek(0).toString(16)))
      var access = frame.access[owner]
      if (!access) { access = { reads: {}, writes: {} }; frame.access[owner] = access }
      if (op === 84 || op === 92) access.reads[slot] = true
      else access.writes[slot] = true
      return
    }
    if (op === 32) {
      var length = parseInt(log.stack.peek(1).toString())
      if (length >= 32 && length <= 128) this.keccak.push(this.slice(log, parseInt(log.stack.peek(0).toString()), length))
      return
    }
    var callName = this.calls[op]
    var extcode = this.extcode[op]
    if (callName !== undefined || extcode !== undefined) {
      // A call or an EXTCODE* opcode: remember targets without code, and EXTCODE* on the EntryPoint.
      var target = toAddress(log.stack.peek(callName !== undefined ? 1 : 0).toString(16))
      var targetHex = toHex(target)
      if (frame.codeless[targetHex] === undefined && parseInt(targetHex, 16) > 0xffff && db.getCode(target).length === 0) {
        frame.codeless[targetHex] = callName !== undefined ? callName : extcode
      }
      if (extcode !== undefined && targetHex === this.entryPoint) {
        if (op === 59) this.sizeOfEntryPoint = true
        else frame.entryPointCode.push(extcode)
      }
      if (callName !== undefined) {
        var withValue = op === 241 || op === 242
        var at = withValue ? 3 : 2
        var callLength = parseInt(log.stack.peek(at + 1).toString())
        frame.calls.push({
          opcode: callName,
          from: toHex(log.contract.getAddress()),
          to: targetHex,
          selector: callLength >= 4 ? this.slice(log, parseInt(log.stack.peek(at).toString()), 4) : '0x',
          withValue: withValue && log.stack.peek(2).toString() !== '0'
        })
      }
    }
  },
  enter: function (callFrame) {
    var type = callFrame.getType()
    if (this.frame !== null && (type === 'CREATE' || type === 'CREATE2')) {
      this.frame.creates.push({ opcode: type, from: toHex(callFrame.getFrom()), to: toHex(callFrame.getTo()) })
    }
  },
  exit: function (result) {
    var error = result.getError()
    if (error && this.frame !== null && String(error).toLowerCase().indexOf('out of gas') >= 0) this.frame.outOfGas = true
  },
  fault: function (log, db) {},
  result: function (ctx, db) { return { frames: this.frames, keccak: this.keccak, output: this.output } }
}`
