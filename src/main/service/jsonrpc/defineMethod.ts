import { z } from 'zod'
import type { Dapp } from '../../../shared/api/dapps'
import type { Logger } from '../log/logger'
import type { Account } from '../store/schema'

/** What a method handler knows about the request beyond its params. */
export type RpcContext = {
  /** The endpoint the request came to. */
  endpoint: 'bundler' | 'paymaster'
  chainId: number
  /** The account that owns the key in the URL. */
  account: Account
  /** The dApp of the paymaster apiKey (paymaster endpoint) or of a dApp key used as bundler key. */
  dapp: Dapp | undefined
  /**
   * The caller may use admin methods: it holds the account's bundler key (or sent the account's authToken header),
   * and is not a web page of another origin.
   */
  privileged: boolean
  log: Logger
}

export type RpcMethod<TParams extends z.ZodType = z.ZodType> = {
  name: string
  /** One line for the OpenRPC document (docs/buildOpenRpcDocument.ts). */
  summary?: string
  /** An admin method (debug_bundler_*): only a privileged caller (RpcContext.privileged) may call it. */
  admin?: true
  /**
   * Positional params as a zod tuple; a failure becomes -32602 naming the field. A tuple element's `title` meta
   * names the param in the OpenRPC document.
   */
  params: TParams
  /** The result's schema, for the OpenRPC document only (the handler's answer is not checked against it). */
  result?: z.ZodType
  handler: (params: z.output<TParams>, ctx: RpcContext) => Promise<unknown> | unknown
}

/** Declares one wire method; the params type flows from the schema into the handler. */
export function defineMethod<TParams extends z.ZodType>(method: RpcMethod<TParams>): RpcMethod<TParams> {
  return method
}

/** The schema each param that `parsedLater` marks is documented with (docs/buildOpenRpcDocument.ts). */
export const laterParsedParams = z.registry<{ schema: unknown }>()

/**
 * `param` as it is (the tuple lets it through; the handler parses it later, by EntryPoint version or by shape),
 * documented in the OpenRPC document as `schema`, the schema the handler parses it with.
 */
export function parsedLater<T extends z.ZodType>(param: T, schema: z.ZodType): T {
  const documented = param.clone() as T
  laterParsedParams.add(documented, { schema })
  return documented
}

export type RpcMethodRegistry = ReadonlyMap<string, RpcMethod>

export function createMethodRegistry(methods: RpcMethod[]): RpcMethodRegistry {
  const registry = new Map<string, RpcMethod>()
  for (const method of methods) {
    if (registry.has(method.name)) throw new Error(`duplicate JSON-RPC method ${method.name}`)
    registry.set(method.name, method)
  }
  return registry
}
