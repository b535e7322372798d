import { expect } from 'vitest'
import { z } from 'zod'
import bundlerSpec from '../../../fixtures/bundlerSpec/openrpc.json'

/**
 * The result schemas of the ERC-4337 bundler JSON-RPC specification the suite's RPC tests validate answers against
 * (test/fixtures/bundlerSpec/openrpc.json, recorded by scripts/record-bundler-spec-openrpc.mjs from
 * eth-infinitism/bundler-spec, CC0-1.0), dereferenced as that repository's build dereferences them.
 */
type Schema = Record<string, unknown>
const components = bundlerSpec.components.schemas as Record<string, Schema>

function dereference(schema: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => dereference(item, seen))
  if (schema === null || typeof schema !== 'object') return schema
  const ref = (schema as Schema).$ref
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '')
    if (seen.includes(name)) throw new Error(`the specification's schema ${name} refers to itself`)
    const target = components[name]
    if (!target) throw new Error(`the specification has no schema ${name}`)
    return dereference(target, [...seen, name])
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, dereference(value, seen)]))
}

/** The specification's schema of `method`'s result. */
export function bundlerSpecResultSchema(method: string): Schema {
  const entry = bundlerSpec.methods.find((m: { name: string }) => m.name === method)
  if (!entry) throw new Error(`the bundler specification has no method ${method}`)
  return dereference(entry.result.schema) as Schema
}

/** The result fits the specification's schema for `method`, as the suite's `validate(instance=…, schema=…)` checks. */
export function expectFitsBundlerSpec(method: string, result: unknown): void {
  const parsed = z.fromJSONSchema(bundlerSpecResultSchema(method) as never).safeParse(result)
  expect(parsed.success, `${method}'s result against the specification: ${parsed.error?.message}`).toBe(true)
}
