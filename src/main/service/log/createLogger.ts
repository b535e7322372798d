import { type Logger as PinoLogger, pino } from 'pino'
import type { ServiceConfig } from '../config'
import { REDACTED, redactUrl } from './redactUrl'

type LoggedRequest = {
  method?: string
  url?: string
  host?: string
  ip?: string
  socket?: { remoteAddress?: string; remotePort?: number }
}

/**
 * The service's logger (stderr). Credentials never reach the log, whatever route or code logs: the `req` serializer
 * (Fastify's request log uses it) writes the URL with its keys and tokens redacted (redactUrl.ts) and no headers, and
 * fields named after a credential are censored wherever an object is logged.
 */
export function createLogger(
  level: ServiceConfig['logLevel'],
  destination: pino.DestinationStream = pino.destination(2),
): PinoLogger {
  return pino(
    {
      level,
      base: { service: 'opstation' },
      serializers: { req: serializeRequest },
      redact: {
        paths: [
          'authToken',
          'apiKey',
          'bundlerKey',
          'token',
          '*.authToken',
          '*.apiKey',
          '*.bundlerKey',
          '*.token',
          '*.headers.authtoken',
          '*.headers.apikey',
          '*.headers.cookie',
          '*.headers.authorization',
        ],
        censor: REDACTED,
      },
    },
    destination,
  )
}

function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  }
}
