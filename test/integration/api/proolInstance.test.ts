import { Pool } from 'prool'
import { createPublicClient, http } from 'viem'
import { describe, expect, it } from 'vitest'
import { opstation } from '../../../src/main/api/prool'
import { childAnvils } from '../../helpers/childrenOf'
import { sendSponsoredV07Through } from '../paymaster/paymasterTestKit'

describe('the prool instance (opstation/prool)', () => {
  it("a prool lease pool runs two Opstations on the ports prool picks; `_internal.opstation` is each one's API; closing the pool leaves nothing", async () => {
    const pool = Pool.create({ instance: opstation(), limit: 2 })
    const leases = await Promise.all([pool.acquire(), pool.acquire()])
    let closed = false
    try {
      const [a, b] = leases.map((lease) => lease.instance)
      expect(a!.url).not.toBe(b!.url)
      for (const instance of [a!, b!]) {
        expect(instance).toMatchObject({ name: 'opstation', status: 'started', host: '127.0.0.1' })
        expect(instance._internal.opstation?.dashboardUrl).toBe(instance.url)
      }
      expect(a!.messages.get()).toEqual([`opstation listening on ${a!.url}`])
      const op = a!._internal.opstation!
      const dapp = await op.createDapp({ name: 'pooled' })
      const receipt = await sendSponsoredV07Through({
        client: createPublicClient({ chain: op.chain, transport: http(op.rpcUrl!) }),
        bundlerUrl: op.bundlerUrl,
        paymasterUrl: dapp.paymasterUrl,
      })
      expect(receipt.success).toBe(true)
      expect(childAnvils()).toHaveLength(2)
      await Promise.all(leases.map((lease) => lease.release()))
      await pool.close()
      closed = true
      expect(a!._internal.opstation).toBeUndefined()
      await expect(fetch(`${a!.url}/health`)).rejects.toThrow()
    } finally {
      if (!closed) await pool.close()
    }
    expect(childAnvils()).toEqual([])
  }, 120_000)

  it('started on its own, it listens on any free port and reports it', async () => {
    const instance = opstation({ noChain: true })
    expect(instance.port).toBe(0)
    await instance.start()
    try {
      expect(instance.port).toBeGreaterThan(0)
      expect((await fetch(`${instance.url}/health`)).status).toBe(200)
    } finally {
      await instance.stop()
    }
    expect(instance.status).toBe('stopped')
  })
})
