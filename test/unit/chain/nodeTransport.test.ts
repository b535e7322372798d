import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createPublicClient } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { createIpcPool } from '../../../src/main/service/chain/node/createIpcPool'
import { createIpcRequest, holdsLoneSurrogate } from '../../../src/main/service/chain/node/createIpcRequest'
import { createNodeTransport } from '../../../src/main/service/chain/node/createNodeTransport'
import { isNodeUnreachable } from '../../../src/main/service/chain/node/isNodeUnreachable'
import { NodeRpcError } from '../../../src/main/service/chain/node/nodeRpcError'

type Call = { id: number; method: string; params: unknown[] }

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function tempSocketPath(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ipc-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return path.join(dir, 'node.ipc')
}

/** A fake node on a Unix socket: `answer` decides what each call gets (written as one JSON line). */
async function startIpcNode(
  socketPath: string,
  answer: (call: Call, socket: net.Socket) => void,
): Promise<{ server: net.Server; connections: () => number }> {
  let connections = 0
  const server = net.createServer((socket) => {
    connections++
    let buffer = ''
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i)
        buffer = buffer.slice(i + 1)
        if (line) answer(JSON.parse(line) as Call, socket)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(socketPath, resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { server, connections: () => connections }
}

async function startHttpNode(answer: (call: Call) => unknown): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      const call = JSON.parse(body) as Call
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: answer(call) }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
}

describe('createIpcRequest', () => {
  it('matches answers to calls by id, in any order and split across chunks, over one connection', async () => {
    const socketPath = await tempSocketPath()
    const held: { call: Call; socket: net.Socket }[] = []
    const node = await startIpcNode(socketPath, (call, socket) => {
      held.push({ call, socket })
      if (held.length < 3) return
      // Answer the last call first, and cut one answer in two writes.
      for (const { call: c, socket: s } of held.reverse()) {
        const line = `${JSON.stringify({ jsonrpc: '2.0', id: c.id, result: `${c.method}:${c.params[0]}` })}\n`
        s.write(line.slice(0, 10))
        s.write(line.slice(10))
      }
    })
    const request = createIpcRequest(socketPath)
    cleanups.push(() => request.close())
    const results = await Promise.all([request('a', [1]), request('b', [2]), request('c', [3])])
    expect(results).toEqual(['a:1', 'b:2', 'c:3'])
    expect(node.connections()).toBe(1)
  })

  it('rejects a JSON-RPC error with a NodeRpcError carrying code and data, and no stack of the socket reader', async () => {
    const socketPath = await tempSocketPath()
    await startIpcNode(socketPath, (call, socket) => {
      socket.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: 3, message: 'execution reverted', data: '0xdead' } })}\n`,
      )
    })
    const request = createIpcRequest(socketPath)
    cleanups.push(() => request.close())
    const err = await request('eth_call', []).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NodeRpcError)
    expect(err).toMatchObject({ code: 3, data: '0xdead', message: 'execution reverted' })
    expect((err as Error).stack).not.toContain('\n    at ')
    expect(new Error('later errors keep their stacks').stack).toContain('\n    at ')
  })

  it('rejects calls in flight with ECONNRESET when the connection is lost, and connects again afterwards', async () => {
    const socketPath = await tempSocketPath()
    let drop = true
    const node = await startIpcNode(socketPath, (call, socket) => {
      if (drop) {
        drop = false
        socket.destroy()
        return
      }
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: call.id, result: 'ok' })}\n`)
    })
    const request = createIpcRequest(socketPath)
    cleanups.push(() => request.close())
    await expect(request('eth_blockNumber', [])).rejects.toMatchObject({ code: 'ECONNRESET' })
    await expect(request('eth_blockNumber', [])).resolves.toBe('ok')
    expect(node.connections()).toBe(2)
  })

  it("reads a call's answer with the body reader it was sent with; a reader that throws rejects the call", async () => {
    const socketPath = await tempSocketPath()
    await startIpcNode(socketPath, (call, socket) => {
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { text: call.method } })}\n`)
    })
    const request = createIpcRequest(socketPath)
    cleanups.push(() => request.close())
    const readLength = (text: string) => ({ result: text.length })
    const [read, parsed] = await Promise.all([request('traced', [], readLength), request('plain', [])])
    expect(read).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'traced' } }).length)
    expect(parsed).toEqual({ text: 'plain' })
    const failing = () => {
      throw new Error('unreadable')
    }
    await expect(request('traced', [], failing)).rejects.toThrow('unreadable')
  })
})

describe('createIpcPool', () => {
  it('sends a call made while another is unanswered over a second connection, and reuses the first when idle', async () => {
    const socketPath = await tempSocketPath()
    const slow: { call: Call; socket: net.Socket }[] = []
    const node = await startIpcNode(socketPath, (call, socket) => {
      // A node that answers each connection in order: 'slow' is held until released, the rest answered at once.
      if (call.method === 'slow') slow.push({ call, socket })
      else socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: call.id, result: call.method })}\n`)
    })
    const pool = createIpcPool(socketPath, 4)
    cleanups.push(() => pool.close())
    expect(await pool('first', [])).toBe('first')
    expect(await pool('second', [])).toBe('second')
    expect(node.connections()).toBe(1)

    const slowAnswer = pool('slow', [])
    await expect.poll(() => slow.length).toBe(1)
    expect(pool.inFlight()).toBe(1)
    // Answered while the slow call still waits: it went over another connection.
    expect(await pool('quick', [])).toBe('quick')
    expect(node.connections()).toBe(2)
    const held = slow[0] as { call: Call; socket: net.Socket }
    held.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: held.call.id, result: 'done' })}\n`)
    expect(await slowAnswer).toBe('done')
    expect(pool.inFlight()).toBe(0)
  })
})

describe('createNodeTransport', () => {
  it("reaches a node with an IPC endpoint over IPC only: never over its HTTP port, which may be another process's", async () => {
    let httpCalls = 0
    const rpcUrl = await startHttpNode(() => {
      httpCalls += 1
      return '0x2'
    })
    const ipcPath = await tempSocketPath()
    await startIpcNode(ipcPath, (call, socket) => {
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: call.id, result: '0x1' })}\n`)
    })
    const node = createNodeTransport({ rpcUrl, ipcPath })
    cleanups.push(() => node.close())
    const client = createPublicClient({ transport: node.transport })
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(1n)

    // No IPC server at all (anvil gone): the call fails as the node out of reach; HTTP is never asked.
    const gone = createNodeTransport({ rpcUrl, ipcPath: await tempSocketPath() })
    cleanups.push(() => gone.close())
    const failure = await gone.request('eth_blockNumber', []).catch((err: unknown) => err)
    expect(isNodeUnreachable(failure)).toBe(true)
    expect(httpCalls).toBe(0)
  })

  it('sends a call again over IPC when its endpoint comes back within moments (anvil restarting)', async () => {
    const ipcPath = await tempSocketPath()
    const node = createNodeTransport({ rpcUrl: 'http://127.0.0.1:1', ipcPath })
    const answered = node.request('eth_blockNumber', [])
    await new Promise((r) => setTimeout(r, 50))
    await startIpcNode(ipcPath, (call, socket) => {
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: call.id, result: '0x7' })}\n`)
    })
    // Closed before the fake node (cleanups run last first), which waits for its connections to end.
    cleanups.push(() => node.close())
    expect(await answered).toBe('0x7')
  })

  it('hands the body reader of a call to the HTTP transport as well', async () => {
    const rpcUrl = await startHttpNode((call) => call.method)
    const node = createNodeTransport({ rpcUrl })
    cleanups.push(() => node.close())
    const readUpperCase = (text: string) => ({ result: (JSON.parse(text).result as string).toUpperCase() })
    expect(await node.request('traced', [], readUpperCase)).toBe('TRACED')
    expect(await node.request('plain', [])).toBe('plain')
  })
})

describe('a call holding a lone UTF-16 surrogate', () => {
  it('is refused at once over IPC (the node answers such a line with id null, so the call would wait 30 s)', async () => {
    const ipcPath = await tempSocketPath()
    // As anvil does: a line it cannot read gets an error with id null; others their result.
    const server = net.createServer((socket) => {
      let buffer = ''
      socket.on('data', (chunk) => {
        buffer += chunk.toString('utf8')
        for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
          const line = buffer.slice(0, i)
          buffer = buffer.slice(i + 1)
          // A strict parser refuses text with a lone surrogate.
          const params = JSON.parse(line).params as string[]
          const unreadable = params.some((p) =>
            /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(p),
          )
          socket.write(
            `${JSON.stringify(
              unreadable
                ? { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } }
                : { jsonrpc: '2.0', id: JSON.parse(line).id, result: '0x1' },
            )}\n`,
          )
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(ipcPath, resolve))
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const request = createIpcRequest(ipcPath)
    cleanups.push(() => request.close())

    const started = performance.now()
    const refused = await request('eth_getBalance', [
      '0x00000000000000000000000000000000000000aa\udc00',
      'latest',
    ]).catch((err: unknown) => err)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(refused).toBeInstanceOf(NodeRpcError)
    expect(refused).toMatchObject({ code: -32600, message: expect.stringMatching(/lone UTF-16 surrogate/) })
    // A proper pair, and text that only looks like an escape, go through.
    expect(await request('eth_call', ['\ud83d\ude00 and \\ud800 as text'])).toBe('0x1')
    expect(request.inFlight()).toBe(0)
  })

  it('is found in JSON text by its escape, not in a pair or behind an escaped backslash', () => {
    expect(holdsLoneSurrogate(JSON.stringify({ a: 'x\ud800' }))).toBe(true)
    expect(holdsLoneSurrogate(JSON.stringify({ a: '\udfff' }))).toBe(true)
    expect(holdsLoneSurrogate(JSON.stringify({ a: '\\\ud800' }))).toBe(true)
    expect(holdsLoneSurrogate(JSON.stringify({ a: '\ud83d\ude00' }))).toBe(false)
    expect(holdsLoneSurrogate(JSON.stringify({ a: '\\ud800' }))).toBe(false)
    expect(holdsLoneSurrogate(JSON.stringify({ a: '\u00e9\u4e2d' }))).toBe(false)
  })
})
