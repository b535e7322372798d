import type { FastifyError, FastifyReply } from 'fastify'
import { AppError, ChainUnavailableError, UnknownChainError } from '../errors'
import { classifyError } from '../errors/classifyError'
import type { Logger } from '../log/logger'

export type RestEnvelope = { statusCode: number; message: string; data?: unknown }

export function sendOk(reply: FastifyReply, message: string, data?: unknown): FastifyReply {
  const body: RestEnvelope = { statusCode: 200, message }
  if (data !== undefined) body.data = data
  return reply.code(200).send(body)
}

/** The only place that turns a thrown value into the REST envelope `{statusCode, message}`. */
export function toHttpError(thrown: unknown, log?: Logger): RestEnvelope {
  const err = classifyError(thrown)
  if (err instanceof AppError) {
    // The chain away is logged once by its status (createService.ts), not by every request meanwhile.
    if (err instanceof ChainUnavailableError) log?.debug({ err }, 'request refused: the chain is away')
    else if (err.httpStatus >= 500) log?.error({ err }, 'request failed')
    // A chain not run: the message stays the dashboard's, the chains run come in `data` (chainIds).
    if (err instanceof UnknownChainError && err.data !== undefined)
      return { statusCode: err.httpStatus, message: err.shortMessage, data: err.data }
    return { statusCode: err.httpStatus, message: err.shortMessage }
  }
  const fastifyError = err as Partial<FastifyError>
  const status = fastifyError.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { statusCode: status, message: describeFastifyError(fastifyError) }
  }
  log?.error({ err }, 'unexpected error')
  return { statusCode: 500, message: 'Internal Server Error' }
}

function describeFastifyError(err: Partial<FastifyError>): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is not valid JSON'
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large'
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type: send application/json'
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Request body length does not match Content-Length'
    case 'FST_ERR_BAD_URL':
      return 'Malformed URL: a path segment is not valid percent-encoded UTF-8'
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'A path parameter of the URL is too long'
    default:
      return err.message ?? 'Bad Request'
  }
}
