import type { ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { StreamedEvent } from '../../../shared/api/events'
import { authenticateHeaderOrQuery } from '../dashboard/auth'
import { withDoc } from '../docs/routeDoc'
import type { EventBus } from '../events'
import type { ConsoleSession } from '../server/consoleSession'
import { findAccountByAuthToken } from '../store/accounts.repo'
import type { Store } from '../store/openStore'

export const EVENTS_AUTH_TOKEN_REQUIRED =
  'Auth token is required (the authToken header or the authToken query parameter)'

export type EventStreamRoutesOptions = {
  store: Store
  /** The console's sign-in: its session cookie is enough (EventSource sends it, and the URL stays free of keys). */
  session?: ConsoleSession
  events: EventBus
  /** How long events gather before they go out as one message (ms). */
  batchMs?: number
  /** Interval of the keep-alive comment (ms). */
  heartbeatMs?: number
}

const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8'

/** Events per message; beyond it they are counted, not sent (the console refreshes on any message anyway). */
const MAX_BATCH = 1000
/** A client that stops reading is cut off once this much is queued for it. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024

/**
 * `GET /console/api/events`: the event bus as Server-Sent Events for the console. Events gather for ~250 ms and
 * go out as one `data:` message holding a JSON array of `{name, payload, at}`; a `: heartbeat` comment every
 * 15 s keeps the connection open. EventSource cannot set headers, so the auth token may come as the
 * `?authToken=` query parameter (checked like the header). Same-origin only, as the whole console API is.
 */
export async function registerEventStreamRoutes(
  app: FastifyInstance,
  options: EventStreamRoutesOptions,
): Promise<void> {
  const open = new Set<(options?: { closeConnection: boolean }) => void>()
  // Open streams would keep server.close() waiting: end them and their connections first.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end({ closeConnection: true })
  })

  // The request line's `?authToken=` is redacted by the logger (createLogger.ts), as every credential in a URL is.
  app.get(
    '/console/api/events',
    withDoc({
      tag: 'Console: activity',
      summary: "The service's events as Server-Sent Events (same origin only)",
      description:
        'Events gather for ~250 ms and go out as one `data:` message holding a JSON array of `{name, payload, at}` ' +
        '(`userOperation.changed`, `sponsorship.decided`, `webhook.called`, `chain.status`, `settings.changed`); a ' +
        '`: heartbeat` comment every 15 s keeps the connection open.',
      auth: 'eventStream',
      missingCredentialMessage: EVENTS_AUTH_TOKEN_REQUIRED,
      response: { description: 'The event stream', contentType: 'text/event-stream' },
    }),
    async (request, reply) => {
      const account =
        options.session?.findSignedInAccount(request) ??
        authenticateHeaderOrQuery(options.store, request, EVENTS_AUTH_TOKEN_REQUIRED)
      // A stream is one request: when its token is regenerated away, it ends (the client reconnects with the new one).
      const token = account.authToken
      const isAuthorized = () => findAccountByAuthToken(options.store, token) !== undefined
      // HEAD (Fastify serves it with the GET handler) has no body, so no stream: Node would hold back even the headers
      // of a response that never ends, and the client would wait forever.
      if (request.method === 'HEAD')
        return reply
          .code(200)
          .header('cache-control', 'no-cache, no-transform')
          .type(EVENT_STREAM_TYPE)
          .send()
      reply.hijack()
      const end = streamEvents(reply.raw, { ...options, isAuthorized }, () => open.delete(end))
      open.add(end)
      // The response closes when the client disconnects (a request's own 'close' only means its body was read).
      reply.raw.on('close', () => end())
    },
  )
}

/** Writes the bus's events to an SSE response until `end` (returned) is called or the client goes away. */
function streamEvents(
  res: ServerResponse,
  options: Pick<EventStreamRoutesOptions, 'events' | 'batchMs' | 'heartbeatMs'> & {
    /** Checked before every write. */
    isAuthorized: () => boolean
  },
  onEnd: () => void,
): (options?: { closeConnection: boolean }) => void {
  res.writeHead(200, {
    'content-type': EVENT_STREAM_TYPE,
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  })
  res.write('retry: 3000\n: connected\n\n')

  let batch: StreamedEvent[] = []
  let dropped = 0
  let flushTimer: ReturnType<typeof setTimeout> | undefined
  let ended = false

  const end = (options?: { closeConnection: boolean }) => {
    if (ended) return
    ended = true
    unsubscribe()
    clearInterval(heartbeat)
    clearTimeout(flushTimer)
    onEnd()
    // At shutdown the connection goes too, once the end is written: a client keeping it alive would hold
    // server.close() until its own keep-alive timeout.
    const socket = options?.closeConnection ? res.socket : null
    if (!res.writableEnded) res.end(() => socket?.destroy())
    else socket?.destroy()
  }
  const write = (text: string) => {
    if (ended || res.destroyed || !options.isAuthorized()) return end()
    res.write(text)
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      end()
      res.destroy()
    }
  }
  const flush = () => {
    flushTimer = undefined
    if (dropped > 0) batch.push({ name: 'events.dropped', payload: { count: dropped }, at: now() })
    const message = `data: ${JSON.stringify(batch)}\n\n`
    batch = []
    dropped = 0
    write(message)
  }
  const unsubscribe = options.events.onAny((name, payload) => {
    if (batch.length < MAX_BATCH) batch.push({ name, payload, at: now() } as StreamedEvent)
    else dropped += 1
    flushTimer ??= setTimeout(flush, options.batchMs ?? 250)
  })
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), options.heartbeatMs ?? 15_000)
  return end
}

function now(): string {
  return new Date().toISOString()
}
