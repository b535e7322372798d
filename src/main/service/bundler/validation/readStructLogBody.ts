import type { RpcResponseJson } from '../../chain/node/nodeRpcError'
import type { StructLog } from './traceFromStructLogs'

const STRUCT_LOGS = '"structLogs":['
const OP = '"op":"'
const GAS = '"gas":'
const DEPTH = '"depth":'
const STORAGE = '"storage":'

/**
 * Reads a struct-logger response (`debug_traceCall` without stack or memory) straight from its text, keeping
 * of each step only what the validation checks use: op, depth, the gas left at SSTORE steps and the storage
 * of SLOAD/SSTORE steps.
 * JSON.parse of the same text builds every field of every step (a Smart Account validation: 5,000 steps,
 * 370 KB) and cost the service more than the rest of the operation. Expects the field order geth and anvil
 * write (op, gas, depth, then storage); any other response (an error, no struct log) goes to JSON.parse.
 * Throws when a step does not read as expected.
 */
export function readStructLogBody(text: string): RpcResponseJson {
  const start = text.indexOf(STRUCT_LOGS)
  if (start === -1) return JSON.parse(text)
  const structLogs: StructLog[] = []
  let at = text.indexOf(OP, start)
  while (at !== -1) {
    const opStart = at + OP.length
    const opEnd = text.indexOf('"', opStart)
    const depthAt = text.indexOf(DEPTH, opEnd)
    if (opEnd === -1 || depthAt === -1) throw new Error('unreadable struct log step')
    const step: StructLog = {
      op: text.slice(opStart, opEnd),
      depth: readInteger(text, depthAt + DEPTH.length),
    }
    if (step.op === 'SSTORE') step.gas = readInteger(text, text.indexOf(GAS, opEnd) + GAS.length)
    const next = text.indexOf(OP, depthAt)
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
