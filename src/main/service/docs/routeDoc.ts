import type { z } from 'zod'

/**
 * How a route checks its caller (dashboard/auth.ts, server/consoleSession.ts); the OpenAPI document's security
 * requirement follows from it (buildOpenApiDocument.ts).
 * - `none`: open (the Host and Origin checks of buildServer still apply).
 * - `authToken`: the `authToken` header.
 * - `authTokenAndApiKey`: the `authToken` and `apiKey` headers (dApp-scoped dashboard routes).
 * - `session`: the console's session cookie or the `authToken` header.
 * - `eventStream`: the session cookie, the `authToken` header or the `authToken` query parameter (EventSource).
 */
export type RouteAuth = 'none' | 'authToken' | 'authTokenAndApiKey' | 'session' | 'eventStream'

/** The groups of the reference, in the order it lists them. */
export const ROUTE_TAGS = [
  'Paymasters',
  'Smart contracts',
  'Webhooks',
  'Console: sign-in',
  'Console: dApps',
  'Console: activity',
  'Console: sandbox',
  'Console: settings',
  'Console: time',
  'JSON-RPC',
  'Service',
] as const
export type RouteTag = (typeof ROUTE_TAGS)[number]

/** A response that is not the REST envelope `{statusCode, message, data}`. */
export type RawResponseDoc = {
  description: string
  /** Default `application/json`. */
  contentType?: string
  schema?: z.ZodType
}

/** What a route tells its callers; attached to the route itself (`withDoc`) and read back by the generator. */
export type RouteDoc = {
  tag: RouteTag
  /** One line. */
  summary: string
  description?: string
  auth: RouteAuth
  /** Path parameters (documentation: the handler reads them as Fastify gives them). */
  params?: z.ZodObject
  /** The query schema the handler parses. */
  query?: z.ZodObject
  /** The body schema the handler parses. */
  body?: z.ZodType
  /** Whether a body must be sent when `body` is given (default true). */
  bodyRequired?: boolean
  /**
   * `data` of the REST envelope on success; absent with `response` or for a message-only answer
   * (`{statusCode: 200, message}`).
   */
  data?: z.ZodType
  /** A success answer that is not the envelope (console sign-in, JSON-RPC, event stream, /health, /docs). */
  response?: RawResponseDoc
  /**
   * Failures beyond the ones the generator adds (400 for a route with input, 401 for one with credentials): status
   * → when it happens, with the exact message where it is fixed.
   */
  errors?: Record<number, string>
  /** The body of a failure (default: the REST envelope `{statusCode, message}`). */
  errorSchema?: z.ZodType
  /** The 401 message when a credential is missing (dashboard/auth.ts); it goes into the 401's description. */
  missingCredentialMessage?: string
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's documentation (docs/routeDoc.ts), collected into the OpenAPI document. */
    doc?: RouteDoc
  }
}

/**
 * A compile-time check that a documented schema covers what the code really answers (`T`, the type it produces):
 * `type _Checked = Covers<typeof ViewSchema, ReturnType<typeof toView>>` stops compiling when they drift apart.
 */
export type Covers<S extends z.ZodType, T extends z.output<S>> = T

/**
 * Checks that a request body schema takes what a client sends (a shared request type): `type _Checked =
 * Accepts<typeof PatchBody, DappPoliciesPatch>` stops compiling when they drift apart.
 */
export type Accepts<S extends z.ZodType, T extends z.input<S>> = T

/** Route options that carry `doc`: `app.post(path, withDoc({...}), handler)`. */
export function withDoc(doc: RouteDoc): { config: { doc: RouteDoc } } {
  return { config: { doc } }
}
