import { type ChildProcess, spawn } from 'node:child_process'
import { findFreePort } from '../../src/main/service/chain/anvil/findFreePort'
import { resolveAnvilBinary } from '../../src/main/service/chain/anvil/resolveAnvilBinary'

/** Starts a plain anvil (our own process, not the chain module's) and waits for it to answer. */
export async function startPlainAnvil(chainId: number): Promise<{ url: string; child: ChildProcess }> {
  const port = await findFreePort()
  const child = spawn(resolveAnvilBinary(), ['--port', String(port), '--chain-id', String(chainId)], {
    stdio: 'ignore',
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return { url, child }
    await new Promise((r) => setTimeout(r, 25))
  }
  child.kill()
  throw new Error('anvil did not start')
}
