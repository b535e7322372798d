import { describe, expect, it } from 'vitest'
import { toHttpError } from '../../../src/main/service/server/restEnvelope'

/** Fastify's own errors as its router and body parser raise them (code, status, message with the input in it). */
const fastifyError = (code: string, statusCode: number, message: string) =>
  Object.assign(new Error(message), { code, statusCode })

describe('Fastify errors in the REST envelope', () => {
  it('say what is wrong with the URL in our words, without echoing it', () => {
    expect(
      toHttpError(fastifyError('FST_ERR_BAD_URL', 400, "'%ED%A0%80' is not a valid url component")),
    ).toEqual({
      statusCode: 400,
      message: 'Malformed URL: a path segment is not valid percent-encoded UTF-8',
    })
    expect(
      toHttpError(
        fastifyError(
          'FST_ERR_MAX_PARAM_LENGTH',
          414,
          `'${'x'.repeat(5000)}' is exceeding the max param length`,
        ),
      ),
    ).toEqual({ statusCode: 414, message: 'A path parameter of the URL is too long' })
  })

  it('keep the body parser messages', () => {
    expect(toHttpError(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413, 'Request body is too large'))).toEqual(
      {
        statusCode: 413,
        message: 'Request body is too large',
      },
    )
  })
})
