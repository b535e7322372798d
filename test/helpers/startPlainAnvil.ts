import { type ChildProcess, spawn } from 'node:child_process'
import { findFreePort } from '../../src/main/service/chain/anvil/findFreePort'
import { resolveAnvilBinary } from '../../src/main/service/chain/anvil/resolveAnvilBinary'

export type PlainAnvilOptions = {
  /** Default: a free port. */
  port?: number
  /** More anvil arguments (--state <file>, --fork-url …). */
  args?: string[]
}

/** Starts a plain anvil (our own process, not the chain module's) and waits for it to answer. */
export async function startPlainAnvil(
  chainId: number,
  options: PlainAnvilOptions = {},
): Promise<{ url: string; port: number; child: ChildProcess; stop: () => Promise<void> }> {
  const port = options.port ?? (await findFreePort())
  const child = spawn(
    resolveAnvilBinary(),
    ['--port', String(port), '--chain-id', String(chainId), ...(options.args ?? [])],
    { stdio: 'ignore' },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  /** SIGTERM (anvil writes its --state file on the way out), and the exit. */
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 400; i++) {
    const ok = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return { url, port, child, stop }
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 25))
  }
  child.kill()
  throw new Error('anvil did not start')
}
