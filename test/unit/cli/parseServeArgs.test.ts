import { describe, expect, it } from 'vitest'
import { findFlagNpmTook, parseServeArgs } from '../../../src/main/cli'

describe('opstation serve flags', () => {
  it('defaults to 127.0.0.1:4337 and the OS data folder', () => {
    const config = parseServeArgs([], {})
    expect(config).toMatchObject({ host: '127.0.0.1', port: 4337, noChain: undefined, unsafe: undefined })
    expect(config.dataDir).toMatch(/Opstation$/)
  })
  it('reads every flag', () => {
    expect(
      parseServeArgs(
        [
          '--host',
          'localhost',
          '--port',
          '0',
          '--data-dir',
          '/tmp/x',
          '--rpc-url',
          'http://127.0.0.1:8545',
          '--chain-id',
          '1337',
          '--block-time',
          '2',
          '--unsafe',
          '--bundling-mode',
          'manual',
          '--webhook-timeout',
          '500',
          '--min-unstake-delay',
          '2',
          '--min-stake',
          '1000000000000000000',
          '--max-pending-per-sender',
          '16',
        ],
        {},
      ),
    ).toMatchObject({
      host: 'localhost',
      port: 0,
      dataDir: '/tmp/x',
      rpcUrl: 'http://127.0.0.1:8545',
      chainId: 1337,
      blockTime: 2,
      unsafe: true,
      bundlingMode: 'manual',
      webhookTimeoutMs: 500,
      minUnstakeDelay: 2,
      minStake: 10n ** 18n,
      maxPendingPerUnstakedSender: 16,
    })
  })
  it('--reset-store, or OPSTATION_RESET_STORE=1, starts fresh over an unreadable store; off by default', () => {
    expect(parseServeArgs([], {}).resetStore).toBe(false)
    expect(parseServeArgs(['--reset-store'], {}).resetStore).toBe(true)
    expect(parseServeArgs([], { OPSTATION_RESET_STORE: '1' }).resetStore).toBe(true)
    expect(parseServeArgs([], { OPSTATION_RESET_STORE: '0' }).resetStore).toBe(false)
  })
  it('--setup names a setup file, or OPSTATION_SETUP does (the flag wins); none by default', () => {
    expect(parseServeArgs([], {}).setup).toBeUndefined()
    expect(parseServeArgs(['--setup', 'setup.json'], {}).setup).toBe('setup.json')
    expect(parseServeArgs([], { OPSTATION_SETUP: 'env.json' }).setup).toBe('env.json')
    expect(parseServeArgs(['--setup', 'flag.json'], { OPSTATION_SETUP: 'env.json' }).setup).toBe('flag.json')
    expect(() => parseServeArgs(['--setup', ''], {})).toThrow('--setup must name a setup file')
  })
  it.each([
    [['--port', '70000'], '--port must be a whole number from 0 to 65535 (got "70000")'],
    [['--bundling-mode', 'sometimes'], '--bundling-mode must be auto, interval or manual (got "sometimes")'],
    [['--rpc-url', 'localhost:8545'], '--rpc-url must be an http(s) or ws(s) URL (got "localhost:8545")'],
    [['--min-stake', '1e18'], '--min-stake must be a whole number of wei (got "1e18")'],
    [
      ['--min-unstake-delay', '-1'],
      '--min-unstake-delay must be a whole number from 0 to 4294967295 (got "-1")',
    ],
    [['--nope'], "Unknown option '--nope'"],
  ])('rejects %j with a one-line message', (args, message) => {
    expect(() => parseServeArgs(args, {})).toThrow(message)
  })
  it('checks a value that starts with a dash like any other, not as an ambiguous option', () => {
    expect(() => parseServeArgs(['--webhook-timeout', '-5'], {})).toThrow(
      '--webhook-timeout must be a whole number from 1 to 600000 (got "-5")',
    )
    expect(() => parseServeArgs(['--port', '-1'], {})).toThrow(
      '--port must be a whole number from 0 to 65535 (got "-1")',
    )
  })
  it('tells which flag npm took for itself (npm start --port 0 without --), and none outside npm', () => {
    expect(findFlagNpmTook({ npm_lifecycle_event: 'start', npm_config_port: '0' })).toBe('port')
    expect(findFlagNpmTook({ npm_lifecycle_event: 'serve', npm_config_data_dir: '/tmp/x' })).toBe('data-dir')
    expect(findFlagNpmTook({ npm_lifecycle_event: 'start' })).toBeUndefined()
    expect(findFlagNpmTook({ npm_config_port: '0' })).toBeUndefined()
  })
})
