import { rpcRequest } from '../../../api/rpc'
import { rpcExchange, type StepContext, type StepFunction } from './stepContext'

type Receipt = { success?: unknown; reason?: unknown; receipt?: { transactionHash?: string } }

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * Polls the bundler for the operation's receipt every `pollMs` until `timeoutMs`; the first poll and the one that
 * finds it are shown. A mined operation whose call reverted fails the step.
 */
export async function waitForReceipt(
  { run, log, update, note }: StepContext,
  { timeoutMs = 60_000, pollMs = 500 } = {},
): Promise<void> {
  const hash = run.userOpHash
  if (!hash) throw new Error('send the operation first')
  const deadline = Date.now() + timeoutMs
  let polls = 0
  while (Date.now() < deadline) {
    polls += 1
    const receipt = await rpcRequest<Receipt | null>(
      run.config.bundlerUrl,
      'eth_getUserOperationReceipt',
      [hash],
      (e) => {
        if (polls === 1 || (e.response as { result?: unknown } | undefined)?.result) log(rpcExchange(e))
      },
    )
    if (receipt) {
      update({ receipt })
      const success = String(receipt.success) === 'true'
      const tx = receipt.receipt?.transactionHash
      note(
        `${success ? 'mined' : 'mined, but the call reverted'} after ${plural(polls, 'poll')}${tx ? ` · tx ${tx.slice(0, 10)}…` : ''}`,
      )
      if (!success)
        throw new Error(
          `The operation was mined but its call reverted${receipt.reason ? `: ${String(receipt.reason)}` : ''}`,
        )
      return
    }
    note(`waiting for the bundle to be mined… (${plural(polls, 'poll')})`)
    await new Promise((r) => setTimeout(r, pollMs))
  }
  throw new Error(`No receipt after ${timeoutMs / 1000} s: see the operation in Activity for its status`)
}

/** The bundler's receipt, once the operation is mined. */
export const readReceipt: StepFunction = (context) => waitForReceipt(context)
