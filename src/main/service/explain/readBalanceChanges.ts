import { type Address, erc20Abi, getAddress } from 'viem'
import type { Chain } from '../chain/types'
import type { ContractBook } from './contractBook'
import type { BalanceChange, ExplainedEvent, TracedFrame } from './types'

/** ETH moved by the frames that succeeded (a reverted frame's transfers are undone), per address. */
export function sumEthFlows(frames: readonly TracedFrame[]): Map<Address, bigint> {
  const deltas = new Map<Address, bigint>()
  const move = (address: Address, amount: bigint) => {
    const key = getAddress(address)
    deltas.set(key, (deltas.get(key) ?? 0n) + amount)
  }
  const walk = (frame: TracedFrame) => {
    if (frame.error) return
    const value = BigInt(frame.value ?? '0x0')
    if (value > 0n && frame.to && frame.type !== 'DELEGATECALL') {
      move(frame.from, -value)
      move(frame.to, value)
    }
    for (const call of frame.calls ?? []) walk(call)
  }
  for (const frame of frames) walk(frame)
  return deltas
}

/** ERC-20 `Transfer(from, to, value)` events summed per token and holder. */
export function sumTokenTransfers(events: readonly ExplainedEvent[]): Map<string, bigint> {
  const deltas = new Map<string, bigint>()
  const move = (token: Address, holder: string, amount: bigint) => {
    const key = `${getAddress(token)}:${getAddress(holder)}`
    deltas.set(key, (deltas.get(key) ?? 0n) + amount)
  }
  for (const event of events) {
    const args = event.args as { from?: string; to?: string; value?: string } | undefined
    if (event.name !== 'Transfer' || !args?.from || !args.to || args.value === undefined) continue
    const value = BigInt(args.value)
    move(event.address, args.from, -value)
    move(event.address, args.to, value)
  }
  return deltas
}

export type ReadBalanceChangesParameters = {
  chain: Chain
  book: ContractBook
  /** The operation's own frames (its phases): the bundle's compensation to the beneficiary is not the operation's. */
  frames: readonly TracedFrame[]
  events: readonly ExplainedEvent[]
  /** Balances before: at the block before the bundle's, or now for a simulation. */
  beforeBlock: bigint | 'latest'
}

/**
 * The operation's balance changes: ETH moved by its calls (its prefund into the EntryPoint included) and ERC-20
 * tokens moved by its `Transfer` events, each with the balance before and after.
 */
export async function readBalanceChanges({
  chain,
  book,
  frames,
  events,
  beforeBlock,
}: ReadBalanceChangesParameters): Promise<BalanceChange[]> {
  const at = beforeBlock === 'latest' ? { blockTag: 'latest' as const } : { blockNumber: beforeBlock }
  const eth = [...sumEthFlows(frames)].filter(([, delta]) => delta !== 0n)
  const tokens = [...sumTokenTransfers(events)].filter(([, delta]) => delta !== 0n)
  const symbolOf = (token: Address) =>
    chain.addresses.tokens.find((t) => t.address.toLowerCase() === token.toLowerCase())?.symbol
  const changes = await Promise.all([
    ...eth.map(async ([address, delta]) => {
      const before = await chain.publicClient.getBalance({ address, ...at })
      return change(address, 'ETH', before, delta)
    }),
    ...tokens.map(async ([key, delta]) => {
      const [token, holder] = key.split(':') as [Address, Address]
      const before = await chain.publicClient
        .readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder], ...at })
        .catch(() => null)
      const symbol = symbolOf(token) ?? book.lookup(token)?.name
      return { ...change(holder, token, before, delta), ...(symbol ? { symbol } : {}) }
    }),
  ])
  return changes
  /** `before` null: the token's balanceOf did not answer (its delta is still the Transfer events'). */
  function change(address: Address, asset: string, before: bigint | null, delta: bigint): BalanceChange {
    return {
      address,
      contract: book.lookup(address)?.name ?? null,
      asset,
      before: before === null ? null : before.toString(),
      after: before === null ? null : (before + delta).toString(),
      delta: delta.toString(),
    }
  }
}
