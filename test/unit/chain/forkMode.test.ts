import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseServeArgs } from '../../../src/main/cli'
import {
  checkForkBlockHash,
  type ForkRecord,
  planFork,
  redactForkUrl,
} from '../../../src/main/service/chain/anvil/prepareFork'
import { buildAnvilArgs } from '../../../src/main/service/chain/anvil/spawnAnvil'
import { isOwnPaymaster } from '../../../src/main/service/chain/deploy/deployContracts'

const URL_A = 'http://127.0.0.1:8545'
const remote = { chainId: 8453, head: 100 }
const record: ForkRecord = { url: URL_A, block: 90, blockHash: '0xabc', chainId: 8453 }

const argsFor = (extra: { chainId?: number; fork?: { url: string; block: number } }) =>
  buildAnvilArgs({
    binary: 'anvil',
    port: 8545,
    statePath: path.join('/nonexistent', 'anvil-state.json'),
    exitDumpPath: path.join('/nonexistent', 'anvil-exit-dump.json'),
    stateIntervalSec: 60,
    gasLimit: 100_000_000n,
    ...extra,
  })
const flagValue = (args: string[], flag: string) =>
  args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined

describe('anvil arguments for a fork', () => {
  it('forks the pinned block without an RPC cache in ~/.foundry, and leaves the chain id to the remote', () => {
    const args = argsFor({ fork: { url: URL_A, block: 42 } })
    expect(flagValue(args, '--fork-url')).toBe(URL_A)
    expect(flagValue(args, '--fork-block-number')).toBe('42')
    expect(args).toContain('--no-storage-caching')
    expect(args).not.toContain('--chain-id')
  })

  it('gives --chain-id when one is set (an override on a fork; always on a local chain)', () => {
    expect(flagValue(argsFor({ chainId: 10, fork: { url: URL_A, block: 1 } }), '--chain-id')).toBe('10')
    const local = argsFor({ chainId: 31337 })
    expect(flagValue(local, '--chain-id')).toBe('31337')
    expect(local).not.toContain('--fork-url')
  })
})

describe('planFork: the flags against the data folder', () => {
  it("first start: forks the remote's head (or --fork-block) with the remote's chain id unless --chain-id", () => {
    expect(
      planFork({ fork: { url: URL_A }, record: undefined, chainId: undefined, hasState: false, remote }),
    ).toEqual({
      url: URL_A,
      block: 100,
      chainId: 8453,
    })
    expect(
      planFork({ fork: { url: URL_A, block: 7 }, record: undefined, chainId: 10, hasState: false, remote }),
    ).toEqual({ url: URL_A, block: 7, chainId: 10, chainIdOverride: 10 })
  })

  it('refuses a block beyond the remote head, and a data folder that holds a local chain', () => {
    expect(() =>
      planFork({
        fork: { url: URL_A, block: 101 },
        record: undefined,
        chainId: undefined,
        hasState: false,
        remote,
      }),
    ).toThrow('--fork-block 101 is beyond the head of http://127.0.0.1:8545 (block 100)')
    expect(() =>
      planFork({ fork: { url: URL_A }, record: undefined, chainId: undefined, hasState: true, remote }),
    ).toThrow(/holds a local chain, not a fork/)
  })

  it('later starts fork the recorded block and chain id, with or without the same flags', () => {
    expect(planFork({ fork: { url: URL_A }, record, chainId: undefined, hasState: true, remote })).toEqual({
      url: URL_A,
      block: 90,
      chainId: 8453,
    })
    expect(
      planFork({ fork: { url: URL_A, block: 90 }, record, chainId: 8453, hasState: true, remote }).block,
    ).toBe(90)
    const overridden = { ...record, chainId: 10 }
    expect(
      planFork({ fork: { url: URL_A }, record: overridden, chainId: undefined, hasState: true, remote }),
    ).toEqual({
      url: URL_A,
      block: 90,
      chainId: 10,
      chainIdOverride: 10,
    })
  })

  it('refuses another --fork-block or --chain-id with one line saying what the folder holds', () => {
    const refusal = (f: () => unknown) => {
      try {
        f()
      } catch (err) {
        return (err as Error).message
      }
      throw new Error('not refused')
    }
    const block = refusal(() =>
      planFork({ fork: { url: URL_A, block: 91 }, record, chainId: undefined, hasState: true, remote }),
    )
    expect(block).toBe(
      'the data folder holds a fork of http://127.0.0.1:8545 at block 90; --fork-block 91 differs: start without --fork-url/--fork-block to continue it, or use another --data-dir',
    )
    expect(block).not.toContain('\n')
    expect(
      refusal(() => planFork({ fork: { url: URL_A }, record, chainId: 10, hasState: true, remote })),
    ).toMatch(/with chain id 8453; --chain-id 10 differs/)
  })

  it('another URL is taken only when it holds the recorded block (the same chain)', () => {
    expect(() => checkForkBlockHash(record, 'http://other:8545', '0xABC')).not.toThrow()
    expect(() => checkForkBlockHash(record, 'http://other:8545', '0xdef')).toThrow(/another block there/)
    expect(() => checkForkBlockHash(record, 'http://other:8545', undefined)).toThrow(/no such block/)
  })
})

describe('redactForkUrl', () => {
  it("hides a provider's key in the path or query, keeps a bare local URL", () => {
    expect(redactForkUrl('https://base-mainnet.g.alchemy.com/v2/SECRETKEY')).toBe(
      'https://base-mainnet.g.alchemy.com/…',
    )
    expect(redactForkUrl('https://rpc.example/?apikey=SECRET')).toBe('https://rpc.example/…')
    expect(redactForkUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545')
    expect(redactForkUrl('http://127.0.0.1:8545/')).toBe('http://127.0.0.1:8545')
  })
})

describe('which mismatched contracts a fork replaces', () => {
  it("only Opstation's own paymasters", () => {
    for (const name of ['verifyingPaymaster', 'tokenPaymaster', 'verifyingPaymasterV07', 'tokenPaymasterV08'])
      expect(isOwnPaymaster(name)).toBe(true)
    for (const name of [
      'entryPoint',
      'entryPointV07',
      'simple7702AccountV08',
      'smartAccountFactory',
      'token:tUSDC',
    ])
      expect(isOwnPaymaster(name)).toBe(false)
  })
})

describe('opstation serve fork flags', () => {
  it('reads --fork-url and --fork-block, or OPSTATION_FORK_URL / OPSTATION_FORK_BLOCK (the flags win)', () => {
    expect(parseServeArgs(['--fork-url', URL_A, '--fork-block', '12'], {})).toMatchObject({
      forkUrl: URL_A,
      forkBlock: 12,
      chainId: undefined,
    })
    expect(parseServeArgs([], { OPSTATION_FORK_URL: URL_A, OPSTATION_FORK_BLOCK: '3' })).toMatchObject({
      forkUrl: URL_A,
      forkBlock: 3,
    })
    expect(parseServeArgs(['--fork-url', 'http://b:1'], { OPSTATION_FORK_URL: URL_A }).forkUrl).toBe(
      'http://b:1',
    )
  })

  it('refuses a fork with --rpc-url or --no-chain, --fork-block alone, and a bad URL or block', () => {
    expect(() => parseServeArgs(['--fork-url', URL_A, '--rpc-url', URL_A], {})).toThrow(
      '--fork-url runs the embedded anvil: it cannot go with --rpc-url',
    )
    expect(() => parseServeArgs(['--fork-url', URL_A, '--no-chain'], {})).toThrow(/cannot go with --no-chain/)
    expect(() => parseServeArgs(['--fork-block', '5'], {})).toThrow('--fork-block needs --fork-url')
    expect(() => parseServeArgs(['--fork-url', 'ftp://x'], {})).toThrow(/--fork-url must be an http\(s\) URL/)
    expect(() => parseServeArgs(['--fork-url', URL_A, '--fork-block', '-1'], {})).toThrow(
      /--fork-block must be a whole number/,
    )
  })
})
