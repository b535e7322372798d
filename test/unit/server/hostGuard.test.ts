import { describe, expect, it } from 'vitest'
import { createHostCheck, hostnameOf } from '../../../src/main/service/server/hostGuard'

describe('host check (DNS-rebinding protection)', () => {
  const check = createHostCheck('127.0.0.1')
  it.each(['localhost:4337', '127.0.0.1:4337', '[::1]:4337', 'LOCALHOST', 'app.localhost:1', '127.0.0.2:80'])(
    'allows %s',
    (host) => {
      expect(check(host)).toBe(true)
    },
  )
  it.each(['evil.example', 'evil.example:4337', '127.0.0.1.nip.io', '', undefined])('refuses %s', (host) => {
    expect(check(host)).toBe(false)
  })
  it('allows the configured host name', () => {
    expect(createHostCheck('devbox.lan')('devbox.lan:4337')).toBe(true)
  })
  it('reads host names out of Host header values', () => {
    expect(hostnameOf('[::1]:80')).toBe('::1')
    expect(hostnameOf('Example.COM:8080')).toBe('example.com')
  })
})
