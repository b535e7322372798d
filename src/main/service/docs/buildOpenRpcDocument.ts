import { z } from 'zod'
import { NODE_METHODS } from '../bundler/methods/forwardToNode'
import { laterParsedParams, type RpcMethod, type RpcMethodRegistry } from '../jsonrpc/defineMethod'
import { type JsonSchema, toJsonSchema } from './toJsonSchema'

export type OpenRpcContentDescriptor = {
  name: string
  description?: string
  required?: boolean
  schema: JsonSchema
}

export type OpenRpcServer = {
  name: string
  url: string
  summary: string
  variables: Record<string, { default: string; description: string }>
}

export type OpenRpcMethod = {
  name: string
  summary: string
  /** `bundler` and/or `paymaster` (the endpoints that serve it), `admin`, `chain`. */
  tags: { name: string; description?: string }[]
  paramStructure: 'by-position'
  params: OpenRpcContentDescriptor[]
  result: OpenRpcContentDescriptor
}

export type OpenRpcDocument = {
  openrpc: '1.3.2'
  info: { title: string; version: string; description: string }
  servers: OpenRpcServer[]
  methods: OpenRpcMethod[]
}

export type BuildOpenRpcDocumentParameters = {
  /** The methods served at the bundler URL and at the paymaster URL (createService.ts). */
  bundlerMethods: RpcMethodRegistry
  paymasterMethods: RpcMethodRegistry
  version: string
}

const ORIGIN = { default: 'http://127.0.0.1:4337', description: 'Where Opstation listens (`dashboardUrl`)' }
const CHAIN_ID = { default: '31337', description: 'The chain the service runs' }

const SERVERS = {
  bundler: {
    name: 'bundler',
    url: '{origin}/api/v2/{chainId}/{bundlerKey}',
    summary: 'The bundler URL (`bundlerUrl` of the ready line); a dApp apiKey works as bundler key too',
    variables: {
      origin: ORIGIN,
      chainId: CHAIN_ID,
      bundlerKey: { default: 'bundlerKey', description: "The account's bundler key, or a dApp's apiKey" },
    },
  },
  paymaster: {
    name: 'paymaster',
    url: '{origin}/api/v1/{chainId}/{apiKey}',
    summary: "A dApp's paymaster URL (`paymasterUrlTemplate` of the ready line)",
    variables: {
      origin: ORIGIN,
      chainId: CHAIN_ID,
      apiKey: { default: 'apiKey', description: "The dApp's apiKey" },
    },
  },
} satisfies Record<string, OpenRpcServer>

const DESCRIPTION = [
  'The JSON-RPC methods of the bundler and the paymaster endpoints, generated from their own param and result',
  'schemas. Requests are JSON-RPC 2.0 POSTs (`application/json`), one call or a batch. Methods tagged `admin`',
  "(debug_bundler_*) need the account's own bundler key in the URL or its `authToken` header, never a dApp",
  'apiKey; methods tagged `chain` are passed to the chain node as they are.',
].join('\n')

const NODE_METHOD_NAMES: ReadonlySet<string> = new Set(NODE_METHODS)

const TAG_DESCRIPTIONS: Record<string, string> = {
  bundler: 'Served at the bundler URL (server "bundler")',
  paymaster: 'Served at a dApp\'s paymaster URL (server "paymaster")',
  admin: "Needs the account's bundler key in the URL or its authToken header, never a dApp apiKey",
  chain: "Passed to the chain's node as it is",
}

/** The OpenRPC 1.3 document of every method of both registries; tags name the endpoints that serve each. */
export function buildOpenRpcDocument({
  bundlerMethods,
  paymasterMethods,
  version,
}: BuildOpenRpcDocumentParameters): OpenRpcDocument {
  const byName = new Map<string, { method: RpcMethod; servers: OpenRpcServer[] }>()
  for (const [registry, server] of [
    [bundlerMethods, SERVERS.bundler],
    [paymasterMethods, SERVERS.paymaster],
  ] as const) {
    for (const method of registry.values()) {
      const entry = byName.get(method.name) ?? { method, servers: [] }
      entry.servers.push(server)
      byName.set(method.name, entry)
    }
  }
  return {
    openrpc: '1.3.2',
    info: { title: 'Opstation bundler and paymaster JSON-RPC', version, description: DESCRIPTION },
    servers: [SERVERS.bundler, SERVERS.paymaster],
    methods: [...byName.values()].map(({ method, servers }) => describeMethod(method, servers)),
  }
}

function describeMethod(method: RpcMethod, servers: OpenRpcServer[]): OpenRpcMethod {
  const tags = servers.map((s) => s.name)
  if (method.admin) tags.push('admin')
  if (NODE_METHOD_NAMES.has(method.name)) tags.push('chain')
  return {
    name: method.name,
    summary: method.summary ?? method.name,
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paramStructure: 'by-position',
    params: describeParams(method.name, method.params),
    result: {
      name: 'result',
      ...describeSchema(`${method.name} result`, method.result ?? z.unknown(), 'output'),
    },
  }
}

/**
 * The positional params of a method's tuple (unwrapped from `.optional()` / `.default()`), named by each element's
 * `title` meta. A rest element of unknown values (extra params accepted and ignored) and a params array of unknown
 * values (no params read) describe nothing.
 */
function describeParams(name: string, params: z.ZodType): OpenRpcContentDescriptor[] {
  let schema: z.ZodType = params
  while (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault)
    schema = schema.def.innerType as z.ZodType
  if (!(schema instanceof z.ZodTuple)) return []
  const items = schema.def.items as z.ZodType[]
  return items.map((item, index) => {
    const meta = z.globalRegistry.get(item)
    // The registry follows `.meta()` copies back to the param `parsedLater` marked.
    const documented = laterParsedParams.get(item)?.schema as z.ZodType | undefined
    const described = describeSchema(`${name} params[${index}]`, documented ?? item, 'input')
    return {
      name: typeof meta?.title === 'string' ? meta.title : `param${index}`,
      required: item._zod.optin !== 'optional',
      ...described,
      ...(typeof meta?.description === 'string' ? { description: meta.description } : {}),
    }
  })
}

function describeSchema(
  label: string,
  schema: z.ZodType,
  io: 'input' | 'output',
): Pick<OpenRpcContentDescriptor, 'description' | 'schema'> {
  const { title: _, description, ...json } = toJsonSchema(schema, io, label, 'draft-07')
  return { ...(typeof description === 'string' ? { description } : {}), schema: json }
}
