import { z } from 'zod'
import { findJsonLimitBreach } from './boundedJsonSchema'
import { MAX_UINT64, readQuantity } from './quantitySchema'

/**
 * How deep the params of a call passed on to the node may nest. Standard calls nest a few levels (a state override
 * holds objects in objects); anvil's JSON parser gives up at 128 levels without answering at all (the call waits
 * for the transport's time-out), and JSON.stringify overflows the stack on a value some thousands of levels deep.
 */
export const NODE_PARAMS_MAX_DEPTH = 32

/** What is wrong with a call's params: `index` names the param (none: the params as a whole). */
export type NodeCallProblem = { index?: number; message: string }

/**
 * Params that crash the node rather than get an error back, per method. anvil (1.7) panics, and the whole
 * chain restarts, on an eth_feeHistory block count above uint64.
 */
const NODE_PARAM_RULES: Record<string, (params: unknown[]) => NodeCallProblem | null> = {
  eth_feeHistory: (params) =>
    params.length === 0 || readQuantity(params[0], MAX_UINT64).ok
      ? null
      : {
          index: 0,
          message: 'blockCount must be a non-negative integer of at most 2^64 - 1 (0x-hex or decimal)',
        },
}

/**
 * What in a call for the node (the bundler's pass-through methods, the chain RPC) must not reach it; null when
 * nothing. The node answers everything else itself, errors included.
 */
export function findNodeCallProblem(method: string, params: unknown): NodeCallProblem | null {
  if (findJsonLimitBreach(params, { maxDepth: NODE_PARAMS_MAX_DEPTH, maxBytes: Number.POSITIVE_INFINITY }))
    return { message: `must be nested at most ${NODE_PARAMS_MAX_DEPTH} levels deep` }
  const rule = Object.hasOwn(NODE_PARAM_RULES, method) ? NODE_PARAM_RULES[method] : undefined
  return rule && Array.isArray(params) ? rule(params) : null
}

/** The problem as one line naming where it is: `params[0]: blockCount must be …`. */
export function describeNodeCallProblem(problem: NodeCallProblem): string {
  return `${problem.index === undefined ? 'params' : `params[${problem.index}]`}: ${problem.message}`
}

/** The positional params of `method` passed on to the node as they are, once findNodeCallProblem finds nothing. */
export function nodeParamsSchema(method: string) {
  return z.array(z.unknown(), { error: 'must be an array' }).superRefine((params, ctx) => {
    const problem = findNodeCallProblem(method, params)
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: problem.index === undefined ? [] : [problem.index],
        message: problem.message,
      })
  })
}
