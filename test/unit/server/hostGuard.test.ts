import { describe, expect, it } from 'vitest'
import { createHostCheck, hostnameOf, isLoopbackAddress } from '../../../src/main/service/server/hostGuard'

const loopback = { remoteAddress: '127.0.0.1', localAddress: '127.0.0.1' }
const fromLan = { remoteAddress: '192.168.1.20', localAddress: '192.168.1.5' }

describe('host check (DNS-rebinding protection)', () => {
  const check = createHostCheck('127.0.0.1')
  it.each(['localhost:4337', '127.0.0.1:4337', '[::1]:4337', 'LOCALHOST', 'app.localhost:1', '127.0.0.2:80'])(
    'allows %s on a loopback connection',
    (host) => {
      expect(check(host, loopback)).toBe(true)
    },
  )
  it.each(['evil.example', 'evil.example:4337', '127.0.0.1.nip.io', '', undefined])('refuses %s', (host) => {
    expect(check(host, loopback)).toBe(false)
  })
  it('allows the configured host name', () => {
    expect(createHostCheck('devbox.lan')('devbox.lan:4337', fromLan)).toBe(true)
  })
  it('refuses loopback names on a connection from another machine (--host on a LAN address)', () => {
    const lan = createHostCheck('192.168.1.5')
    expect(lan('localhost:4337', fromLan)).toBe(false)
    expect(lan('127.0.0.1:4337', fromLan)).toBe(false)
    expect(lan('192.168.1.5:4337', fromLan)).toBe(true)
    expect(lan('evil.example:4337', fromLan)).toBe(false)
  })
  it('with --host 0.0.0.0 allows the address the connection came in on, and loopback names only from this machine', () => {
    const any = createHostCheck('0.0.0.0')
    expect(any('192.168.1.5:4337', fromLan)).toBe(true)
    expect(any('[::ffff:192.168.1.5]:4337', fromLan)).toBe(false)
    expect(any('192.168.1.5:4337', { ...fromLan, localAddress: '::ffff:192.168.1.5' })).toBe(true)
    expect(any('localhost:4337', fromLan)).toBe(false)
    expect(
      any('localhost:4337', { remoteAddress: '::ffff:127.0.0.1', localAddress: '::ffff:127.0.0.1' }),
    ).toBe(true)
    expect(any('0.0.0.0:4337', fromLan)).toBe(false)
  })
  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true)
    expect(['192.168.1.1', '::ffff:10.0.0.1', '', undefined].some(isLoopbackAddress)).toBe(false)
  })
  it('reads host names out of Host header values', () => {
    expect(hostnameOf('[::1]:80')).toBe('::1')
    expect(hostnameOf('Example.COM:8080')).toBe('example.com')
  })
})
