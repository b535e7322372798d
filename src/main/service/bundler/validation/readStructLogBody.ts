import type { RpcResponseJson } from '../../chain/node/nodeRpcError'
import { STACK_OPCODES, type StructLog } from './traceFromStructLogs'

const STRUCT_LOGS = '"structLogs":['
// Searched from their first letter, not the quote: every stack entry has two quotes, and indexOf stops at each.
const OP = 'op":"'
const GAS = 'gas":'
const DEPTH = 'depth":'
const STORAGE = 'storage":'
/** The stack, where geth and anvil write it: right after the depth. */
const STACK = ',"stack":['

/**
 * Reads a struct-logger response (`debug_traceCall` without memory) straight from its text, keeping of each step
 * only what the validation checks use: op, depth, the gas left at SSTORE steps, the storage of SLOAD/SSTORE steps
 * and, when the response has stacks, the stack of the steps in STACK_OPCODES (traceFromStructLogs) and of the step
 * after a KECCAK256.
 * JSON.parse of the same text builds every field of every step (a Smart Account validation: 5,000 steps,
 * 370 KB) and cost the service more than the rest of the operation. Expects the field order geth and anvil
 * write (op, gas, depth, then stack and storage); any other response (an error, no struct log) goes to JSON.parse.
 * Throws when a step does not read as expected.
 */
export function readStructLogBody(text: string): RpcResponseJson {
  const start = text.indexOf(STRUCT_LOGS)
  if (start === -1) return JSON.parse(text)
  const structLogs: StructLog[] = []
  let at = text.indexOf(OP, start)
  let afterKeccak = false
  while (at !== -1) {
    const opStart = at + OP.length
    const opEnd = text.indexOf('"', opStart)
    const depthAt = text.indexOf(DEPTH, opEnd)
    if (opEnd === -1 || depthAt === -1) throw new Error('unreadable struct log step')
    const depthStart = depthAt + DEPTH.length
    const step: StructLog = { op: text.slice(opStart, opEnd), depth: readInteger(text, depthStart) }
    if (step.op === 'SSTORE') step.gas = readInteger(text, text.indexOf(GAS, opEnd) + GAS.length)
    const next = text.indexOf(OP, depthAt)
    if (afterKeccak || STACK_OPCODES.has(step.op)) {
      // Looked for at its place only: a search through the text would run to its end on every step without one.
      const stackAt = skipDigits(text, depthStart)
      if (text.startsWith(STACK, stackAt)) {
        const arrayStart = stackAt + STACK.length - 1
        step.stack = JSON.parse(text.slice(arrayStart, text.indexOf(']', arrayStart) + 1))
      }
    }
    afterKeccak = step.op === 'KECCAK256'
    if (step.op === 'SLOAD' || step.op === 'SSTORE') {
      const storageAt = text.indexOf(STORAGE, depthAt)
      if (storageAt !== -1 && (next === -1 || storageAt < next)) {
        const objectStart = storageAt + STORAGE.length
        step.storage = JSON.parse(text.slice(objectStart, text.indexOf('}', objectStart) + 1))
      }
    }
    structLogs.push(step)
    at = next
  }
  return { result: { structLogs } }
}

function skipDigits(text: string, from: number): number {
  let i = from
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++
  return i
}

function readInteger(text: string, from: number): number {
  let value = 0
  let i = from
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 48 || c > 57) break
    value = value * 10 + (c - 48)
  }
  if (i === from) throw new Error('unreadable struct log step')
  return value
}
