import net from 'node:net'
import { readRpcResponse } from '../src/main/service/chain/node/nodeRpcError'

export type Rpc = (url: string, method: string, params: unknown[]) => Promise<any>

/** An idle connection is not reused after this long (servers close idle keep-alive sockets after 5 s or more). */
const MAX_IDLE_MS = 2_000
/** A response that has not come by then fails the call (the longest call, a receipt wait, is held at most 1 s). */
const RESPONSE_TIMEOUT_MS = 60_000
const HEADER_END = Buffer.from('\r\n\r\n')

type Connection = {
  send: (head: string, body: string) => Promise<string>
  idleSince: number
  socket: net.Socket
}

/**
 * JSON-RPC over plain HTTP/1.1 keep-alive connections (one request at a time on each, a pool per host), written and
 * read by hand the way load generators (wrk, autocannon) do. The bench's clients share the machine's two cores
 * with the service they measure, so they must cost as little as a client can: this costs the caller 46–77 µs a
 * request here against 159–292 µs for node:http (and ~1 ms for fetch); the service parses the same HTTP either way.
 * Reads responses with a content-length or chunked body. A JSON-RPC error rejects with a NodeRpcError carrying its
 * code, message and data; an HTTP status without a JSON-RPC body rejects with the status.
 */
export function createRpc(): Rpc {
  const idleByHost = new Map<string, Connection[]>()
  return async (url, method, params) => {
    const target = new URL(url)
    const idle = idleByHost.get(target.host) ?? []
    idleByHost.set(target.host, idle)
    let connection = idle.pop()
    while (connection && (connection.socket.destroyed || Date.now() - connection.idleSince > MAX_IDLE_MS)) {
      connection.socket.destroy()
      connection = idle.pop()
    }
    connection ??= openConnection(target)
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
    const head = `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`
    const text = await connection.send(head, body)
    connection.idleSince = Date.now()
    // An idle connection does not keep the process alive.
    connection.socket.unref()
    idle.push(connection)
    const response = readRpcResponse(JSON.parse(text) as Parameters<typeof readRpcResponse>[0])
    if (!response.ok) throw response.error
    return response.result
  }
}

function openConnection(target: URL): Connection {
  const socket = net.createConnection({ host: target.hostname, port: Number(target.port || 80) })
  socket.setNoDelay(true)
  let buffered: Buffer = Buffer.alloc(0)
  let pending: { resolve: (text: string) => void; reject: (err: Error) => void } | null = null
  let timer: NodeJS.Timeout | undefined
  const settle = () => {
    const call = pending
    pending = null
    clearTimeout(timer)
    return call
  }
  const fail = (err: Error) => settle()?.reject(err)
  socket.on('error', fail)
  socket.on('close', () => fail(new Error(`the connection to ${target.host} closed before the response`)))
  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
    const response = readHttpResponse(buffered)
    if (!response) return
    buffered = buffered.subarray(response.length)
    const call = settle()
    if (response.status >= 400 && !response.body.startsWith('{'))
      call?.reject(new Error(`HTTP ${response.status} from ${target.host}`))
    else call?.resolve(response.body)
  })
  return {
    socket,
    idleSince: Date.now(),
    send: (head, body) =>
      new Promise((resolve, reject) => {
        pending = { resolve, reject }
        timer = setTimeout(() => {
          fail(new Error(`no response from ${target.host} within ${RESPONSE_TIMEOUT_MS / 1000} s`))
          socket.destroy()
        }, RESPONSE_TIMEOUT_MS)
        socket.ref()
        socket.write(head + body)
      }),
  }
}

/** One whole HTTP/1.1 response at the start of `data` (status, body text, bytes used), or null if incomplete. */
export function readHttpResponse(data: Buffer): { status: number; body: string; length: number } | null {
  const headEnd = data.indexOf(HEADER_END)
  if (headEnd === -1) return null
  const head = data.toString('latin1', 0, headEnd)
  const status = Number(head.slice(9, 12))
  const bodyStart = headEnd + 4
  const contentLength = /\r\ncontent-length: *(\d+)/i.exec(head)
  if (contentLength) {
    const end = bodyStart + Number(contentLength[1])
    if (data.length < end) return null
    return { status, body: data.toString('utf8', bodyStart, end), length: end }
  }
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    const parts: Buffer[] = []
    let at = bodyStart
    for (;;) {
      const lineEnd = data.indexOf('\r\n', at)
      if (lineEnd === -1) return null
      const size = Number.parseInt(data.toString('latin1', at, lineEnd), 16)
      if (size === 0) {
        // The last chunk, then trailers (if any) up to an empty line.
        const end = data.indexOf(HEADER_END, lineEnd)
        if (end === -1) return null
        return { status, body: Buffer.concat(parts).toString('utf8'), length: end + 4 }
      }
      if (data.length < lineEnd + 2 + size + 2) return null
      parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
      at = lineEnd + 2 + size + 2
    }
  }
  // No body (204, or a status without one).
  return { status, body: '', length: bodyStart }
}

/** Polls eth_getUserOperationReceipt (right away, then every intervalMs) until the receipt comes; throws if it reverted. */
export async function waitForReceipt(
  rpc: Rpc,
  bundlerUrl: string,
  hash: string,
  intervalMs = 20,
): Promise<any> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const receipt = await rpc(bundlerUrl, 'eth_getUserOperationReceipt', [hash])
    if (receipt) {
      if (receipt.success !== true) throw new Error(`operation ${hash} reverted: ${receipt.reason}`)
      return receipt
    }
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash}`)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
