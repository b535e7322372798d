import type { CollectedRoute } from './collectRoutes'
import { createEnvelopeSchema, ErrorEnvelopeSchema } from './restEnvelopeSchema'
import { ROUTE_TAGS, type RouteAuth, type RouteDoc, type RouteTag } from './routeDoc'
import { type JsonSchema, toJsonSchema } from './toJsonSchema'

export type OpenApiDocument = {
  openapi: '3.1.0'
  info: { title: string; version: string; description: string }
  tags: { name: string; description: string }[]
  paths: Record<string, Record<string, OpenApiOperation>>
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> }
}

export type OpenApiParameter = {
  name: string
  in: 'path' | 'query'
  required: boolean
  description?: string
  schema: JsonSchema
}

export type OpenApiOperation = {
  operationId: string
  summary: string
  description?: string
  tags: [RouteTag]
  security?: Record<string, string[]>[]
  parameters?: OpenApiParameter[]
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } }
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>
}

export type BuildOpenApiDocumentParameters = {
  /** The routes the server registered (collectRoutes.ts); those without documentation are left out. */
  routes: readonly CollectedRoute[]
  version: string
}

/** The credentials of the REST and console routes (dashboard/auth.ts, server/consoleSession.ts). */
const SECURITY_SCHEMES = {
  authToken: {
    type: 'apiKey',
    in: 'header',
    name: 'authToken',
    description:
      "The account's auth token: in the ready line of `opstation serve` (`authToken`), the console's Overview, " +
      'or `accounts[0].authToken` of `opstation.json` in the data folder',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'apiKey',
    description: "The dApp's apiKey, from the answer of the paymaster creation or the paymaster list",
  },
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'opstation_console',
    description:
      'The console session cookie, set by the login URL printed at start or by POST /console/api/login',
  },
  authTokenQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'authToken',
    description: 'The auth token as a query parameter, for clients that cannot set headers (EventSource)',
  },
} satisfies Record<string, JsonSchema>

type SchemeName = keyof typeof SECURITY_SCHEMES

/** Each inner list is one way to authenticate (all of its credentials together). */
const SECURITY: Record<Exclude<RouteAuth, 'none'>, SchemeName[][]> = {
  authToken: [['authToken']],
  authTokenAndApiKey: [['authToken', 'apiKey']],
  session: [['consoleSession'], ['authToken']],
  eventStream: [['consoleSession'], ['authToken'], ['authTokenQuery']],
}

const TAG_DESCRIPTIONS: Record<RouteTag, string> = {
  Paymasters: 'Paymasters (dApps) of the account: spec section 4.4',
  'Smart contracts': 'The smart contracts of a dApp and the methods it sponsors: spec section 4.5',
  Webhooks: "The dApp's webhook that decides sponsorship: spec section 4.3",
  'Console: sign-in': "The console's session and the service's status",
  'Console: dApps': "A dApp's state, policies, gas tank and webhook calls",
  'Console: activity': 'UserOperations, sponsorship decisions and the live event stream',
  'Console: sandbox': 'Local smart accounts whose keys the service holds, and a faucet',
  'Console: settings': 'Service settings, the auth token and the offline token prices',
  'Console: time': "The chain's time, and named snapshots of the whole stack to revert to",
  'JSON-RPC':
    'The bundler, paymaster and chain JSON-RPC endpoints; their methods are described in /docs/openrpc.json',
  Service: 'Health and this documentation',
}

const DESCRIPTION = [
  "The dashboard REST API (Biconomy's `/api/v2/public/sdk/...` shape) and the console API of Opstation, generated",
  "from the routes' own schemas.",
  '',
  'Every REST answer is the envelope `{statusCode, message}`, with `data` when the route returns some; a failure',
  'carries the HTTP status in `statusCode` and the reason in `message`. Every route refuses a `Host` that does not',
  'name this service (DNS rebinding) and, except the JSON-RPC endpoints, any other `Origin` (403); bodies must be',
  '`application/json`.',
].join('\n')

/** The OpenAPI 3.1 document of every documented route, grouped by tag. */
export function buildOpenApiDocument({ routes, version }: BuildOpenApiDocumentParameters): OpenApiDocument {
  const paths: Record<string, Record<string, OpenApiOperation>> = {}
  for (const route of routes) {
    // HEAD routes are the ones Fastify adds beside each GET.
    if (!route.doc || route.method === 'HEAD') continue
    const path = toOpenApiPath(route.url)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = buildOperation(route.method, route.url, route.doc)
  }
  const used = new Set(Object.values(paths).flatMap((ops) => Object.values(ops).map((op) => op.tags[0])))
  return {
    openapi: '3.1.0',
    info: { title: 'Opstation REST API', version, description: DESCRIPTION },
    tags: ROUTE_TAGS.filter((tag) => used.has(tag)).map((name) => ({
      name,
      description: TAG_DESCRIPTIONS[name],
    })),
    paths,
    components: {
      schemas: { RestError: toJsonSchema(ErrorEnvelopeSchema, 'output') },
      securitySchemes: SECURITY_SCHEMES,
    },
  }
}

/** `/console/api/dapps/:apiKey` → `/console/api/dapps/{apiKey}`. */
export function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

function buildOperation(method: string, url: string, doc: RouteDoc): OpenApiOperation {
  const where = `${method} ${url}`
  const parameters = [...buildPathParameters(url, doc, where), ...buildQueryParameters(doc, where)]
  const responses: OpenApiOperation['responses'] = {
    '200': doc.response
      ? {
          description: doc.response.description,
          content: {
            [doc.response.contentType ?? 'application/json']: {
              schema: doc.response.schema
                ? toJsonSchema(doc.response.schema, 'output', `the answer of ${where}`)
                : { type: 'string' },
            },
          },
        }
      : {
          description: doc.data ? 'Done: the envelope with `data`' : 'Done: the envelope without `data`',
          content: {
            'application/json': {
              schema: toJsonSchema(createEnvelopeSchema(doc.data), 'output', `the answer of ${where}`),
            },
          },
        },
  }
  const errorSchema = doc.errorSchema
    ? toJsonSchema(doc.errorSchema, 'output', `the failures of ${where}`)
    : { $ref: '#/components/schemas/RestError' }
  for (const [status, description] of Object.entries(listErrors(doc)))
    responses[status] = { description, content: { 'application/json': { schema: errorSchema } } }
  return {
    operationId: toOperationId(method, url),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    ...(doc.auth === 'none'
      ? {}
      : { security: SECURITY[doc.auth].map((names) => Object.fromEntries(names.map((n) => [n, []]))) }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body
      ? {
          requestBody: {
            required: doc.bodyRequired ?? true,
            content: {
              'application/json': { schema: toJsonSchema(doc.body, 'input', `the body of ${where}`) },
            },
          },
        }
      : {}),
    responses,
  }
}

function buildPathParameters(url: string, doc: RouteDoc, where: string): OpenApiParameter[] {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string)
  const documented = doc.params ? toJsonSchema(doc.params, 'input', `the path of ${where}`) : undefined
  const properties = (documented?.properties ?? {}) as Record<string, JsonSchema>
  return names.map((name) => {
    const schema = properties[name] ?? { type: 'string' }
    const { description, ...rest } = schema
    return {
      name,
      in: 'path',
      required: true,
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    }
  })
}

function buildQueryParameters(doc: RouteDoc, where: string): OpenApiParameter[] {
  if (!doc.query) return []
  const json = toJsonSchema(doc.query, 'input', `the query of ${where}`)
  const required = new Set((json.required ?? []) as string[])
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => {
    const { description, ...rest } = schema
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    }
  })
}

/** The failures of a route: 400 for one that reads input, 401 for one with credentials, and its own. */
function listErrors(doc: RouteDoc): Record<string, string> {
  const errors: Record<string, string> = {}
  if (doc.body || doc.query)
    errors['400'] = 'Invalid input: `message` names the field and what is wrong with it'
  if (doc.auth !== 'none')
    errors['401'] = doc.missingCredentialMessage
      ? `A credential is missing ("${doc.missingCredentialMessage}") or the auth token is wrong ("Invalid auth token")`
      : 'A credential is missing or wrong'
  for (const [status, description] of Object.entries(doc.errors ?? {})) errors[status] = description
  return errors
}

/** `POST /console/api/dapps/:apiKey/gas-tank` → `postConsoleApiDappsByApiKeyGasTank`. */
function toOperationId(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':')
        ? ['by', ...segment.slice(1).split(/[^A-Za-z0-9]+/)]
        : segment.split(/[^A-Za-z0-9]+/),
    )
    .filter(Boolean)
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('')
}
