import { describe, expect, it } from 'vitest'
import { gateNodeRequest } from '../../../src/main/service/chain/node/gateNodeRequest'
import { isNodeUnreachable } from '../../../src/main/service/chain/node/isNodeUnreachable'

describe('the restart gate of the service calls to the embedded node', () => {
  it('refuses calls while the node restarts, and a call that began before the exit and ended after it', async () => {
    let epoch: number | undefined = 0
    let release: (value: unknown) => void = () => {}
    const node = (method: string) =>
      method === 'slow' ? new Promise((resolve) => (release = resolve)) : Promise.resolve(`${method}-ok`)
    const gate = gateNodeRequest(node, () => epoch)

    expect(await gate.request('eth_chainId', [])).toBe('eth_chainId-ok')
    const straddling = gate.request('slow', []).catch((err: unknown) => err)
    epoch = undefined // the node exited: restarting
    const refused = await gate.request('eth_chainId', []).catch((err: unknown) => err)
    expect(refused).toMatchObject({ message: 'the chain is restarting', code: 'ECHAINAWAY' })
    expect(isNodeUnreachable(refused)).toBe(true)
    epoch = 1 // restarted: the new node answers the slow call, but it was sent to the old one's state
    release('0xstale')
    expect(await straddling).toMatchObject({ code: 'ECHAINAWAY' })
    expect(await gate.request('eth_chainId', [])).toBe('eth_chainId-ok')
  })

  it('says how the node is away while it is (an external node unreachable): the outage the 503 carries', async () => {
    let outage: string | undefined = 'the node at http://127.0.0.1:8545 has not answered since 08:00:00'
    const gate = gateNodeRequest(
      () => Promise.resolve('0x1'),
      () => (outage === undefined ? 0 : undefined),
      () => outage!,
    )
    const refused = await gate.request('eth_chainId', []).catch((err: unknown) => err)
    expect(refused).toMatchObject({ code: 'ECHAINAWAY', outage })
    expect(isNodeUnreachable(refused)).toBe(true)
    outage = undefined
    expect(await gate.request('eth_chainId', [])).toBe('0x1')
  })

  it('keeps the node errors of calls that stayed within one run', async () => {
    const failing = () => Promise.reject(Object.assign(new Error('execution reverted'), { code: 3 }))
    const gate = gateNodeRequest(failing, () => 4)
    await expect(gate.request('eth_call', [])).rejects.toMatchObject({
      message: 'execution reverted',
      code: 3,
    })
  })
})
