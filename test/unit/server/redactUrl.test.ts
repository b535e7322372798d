import { describe, expect, it } from 'vitest'
import { redactUrl } from '../../../src/main/service/log/redactUrl'

describe('redactUrl', () => {
  it.each([
    ['/api/v2/31337/bundlerKey123', '/api/v2/31337/[redacted]'],
    ['/api/v1/31337/apiKey.abc-1/', '/api/v1/31337/[redacted]/'],
    ['/api/v2/abc/key?x=1', '/api/v2/abc/[redacted]?x=1'],
    ['//API/v1/1/key/extra', '//API/v1/1/[redacted]/extra'],
    ['/console/api/dapps/apiKey1/gas-tank', '/console/api/dapps/[redacted]/gas-tank'],
    ['/console/api/events?authToken=abc', '/console/api/events?authToken=[redacted]'],
    ['/console/?token=abc&x=1', '/console/?token=[redacted]&x=1'],
    [
      '/x?limit=5&apiKey=k&auth%54oken=t&before=2',
      '/x?limit=5&apiKey=[redacted]&auth%54oken=[redacted]&before=2',
    ],
    ['/api/v2/public/sdk/paymaster', '/api/v2/public/sdk/paymaster'],
    ['/console/api/user-operations?limit=10', '/console/api/user-operations?limit=10'],
    ['/health', '/health'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected)
  })
})
