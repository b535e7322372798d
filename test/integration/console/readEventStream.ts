/** One Server-Sent Events block: its `data:` lines joined, and its comment lines (`: heartbeat`). */
export type EventStreamBlock = { data: string | null; comments: string[] }

export type EventStreamReader = {
  status: number
  headers: Headers
  /** Every block received so far, in order. */
  blocks: EventStreamBlock[]
  /** Resolves with the first block (already received or next) that matches, or rejects after `timeoutMs`. */
  waitFor: (match: (block: EventStreamBlock) => boolean, timeoutMs?: number) => Promise<EventStreamBlock>
  /** Resolves when the server ends the stream (or the client disconnects). */
  ended: Promise<void>
  /** Disconnects. */
  close: () => void
}

/** Opens an SSE stream with fetch (as any HTTP client can) and parses its blocks as they arrive. */
export async function readEventStream(url: string, init: RequestInit = {}): Promise<EventStreamReader> {
  const controller = new AbortController()
  const response = await fetch(url, { ...init, signal: controller.signal })
  const blocks: EventStreamBlock[] = []
  const waiters = new Set<() => void>()
  let ended: Promise<void> = Promise.resolve()
  if (response.ok && response.body) {
    ended = (async () => {
      const decoder = new TextDecoder()
      let buffer = ''
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true })
          let end = buffer.indexOf('\n\n')
          while (end !== -1) {
            blocks.push(parseBlock(buffer.slice(0, end)))
            buffer = buffer.slice(end + 2)
            end = buffer.indexOf('\n\n')
          }
          for (const wake of waiters) wake()
        }
      } catch {
        // aborted
      }
    })()
  }
  return {
    status: response.status,
    headers: response.headers,
    blocks,
    ended,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = blocks.find(match)
          if (!found) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(found)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(`no matching event-stream block in ${timeoutMs} ms; got ${JSON.stringify(blocks)}`),
          )
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    close: () => controller.abort(),
  }
}

function parseBlock(text: string): EventStreamBlock {
  const data: string[] = []
  const comments: string[] = []
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim())
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  return { data: data.length ? data.join('\n') : null, comments }
}

/** The events of a block's `data:` (a JSON array), or [] for a comment-only block. */
export function eventsOf(block: EventStreamBlock): { name: string; payload: any; at: string }[] {
  return block.data === null ? [] : JSON.parse(block.data)
}
