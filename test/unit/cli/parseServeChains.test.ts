import { describe, expect, it } from 'vitest'
import { parseServeArgs, UsageError } from '../../../src/main/cli'
import { parseServiceConfig } from '../../../src/main/service/config'

describe('opstation serve --chains', () => {
  it('reads embedded, fork and external-node entries, mixed, the first one first', () => {
    const config = parseServeArgs(
      ['--chains', '31337, 31338,8453=fork:https://base.example/rpc,1337=rpc:ws://127.0.0.1:8546'],
      {},
    )
    expect(config.chains).toEqual([
      { chainId: 31337 },
      { chainId: 31338 },
      { chainId: 8453, forkUrl: 'https://base.example/rpc' },
      { chainId: 1337, rpcUrl: 'ws://127.0.0.1:8546' },
    ])
    expect(parseServiceConfig(config).chains).toEqual(config.chains)
  })

  it.each([
    [['--chains', ''], '--chains must name at least one chain id'],
    [
      ['--chains', '31337,abc'],
      '--chains entry "abc" must be <chainId>, <chainId>=fork:<url> or <chainId>=rpc:<url>',
    ],
    [['--chains', '0'], '--chains entry "0" must be'],
    [['--chains', '31337,31337'], '--chains lists chain 31337 twice'],
    [['--chains', '10=fork:ws://x'], '--chains entry "10=fork:ws://x": a fork URL must be an http(s) URL'],
    [['--chains', '10=node:http://x'], '--chains entry "10=node:http://x" must be'],
    [['--chains', '31337', '--chain-id', '5'], '--chains lists every chain: it cannot go with --chain-id'],
    [
      ['--chains', '31337', '--rpc-url', 'http://x'],
      '--chains lists every chain: it cannot go with --rpc-url',
    ],
    [
      ['--chains', '31337', '--fork-url', 'http://x'],
      '--chains lists every chain: it cannot go with --fork-url',
    ],
    [['--chains', '31337', '--no-chain'], '--chains lists every chain: it cannot go with --no-chain'],
  ])('refuses %j with a one-line message', (args, message) => {
    expect(() => parseServeArgs(args, {})).toThrow(UsageError)
    expect(() => parseServeArgs(args, {})).toThrow(message)
  })

  it('leaves the single-chain fork variables aside when --chains lists the chains', () => {
    const config = parseServeArgs(['--chains', '31337,31338'], {
      OPSTATION_FORK_URL: 'https://remote.example',
      OPSTATION_FORK_BLOCK: '5',
    })
    expect(config.forkUrl).toBeUndefined()
    expect(config.forkBlock).toBeUndefined()
  })

  it('keeps --chain-id, --fork-url and --rpc-url meaning one chain', () => {
    expect(parseServeArgs(['--chain-id', '10'], {})).toMatchObject({ chainId: 10, chains: undefined })
  })
})

describe('the chains option of the service config', () => {
  const base = { dataDir: '/tmp/x' }
  it('refuses a chain listed twice, a fork with a node URL, and chains with single-chain options', () => {
    expect(() => parseServiceConfig({ ...base, chains: [{ chainId: 1 }, { chainId: 1 }] })).toThrow(
      'chain 1 is listed twice',
    )
    expect(() =>
      parseServiceConfig({ ...base, chains: [{ chainId: 1, forkUrl: 'http://a', rpcUrl: 'http://b' }] }),
    ).toThrow('either a fork (forkUrl) or an external node (rpcUrl)')
    expect(() => parseServiceConfig({ ...base, chains: [{ chainId: 1 }], chainId: 2 })).toThrow(
      'chains lists every chain: it cannot go with chainId',
    )
    expect(() => parseServiceConfig({ ...base, chains: [] })).toThrow('chains must name at least one chain')
  })
})
