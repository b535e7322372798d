import { existsSync } from 'node:fs'
import { createPublicClient, http } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { formatExplanation, type StartOpstationOptions, startOpstation } from '../../../src/main/api'
import type { ServiceConfigInput } from '../../../src/main/service/config'
import { childAnvils } from '../../helpers/childrenOf'
import { sendSponsoredV07Through } from '../paymaster/paymasterTestKit'

describe('startOpstation (the programmatic API)', () => {
  it('starts two instances side by side on fresh folders; a dApp made by createDapp gets a sponsored operation mined; stop leaves no process, port or folder', async () => {
    const started = performance.now()
    const [a, b] = await Promise.all([startOpstation(), startOpstation()])
    const startMs = performance.now() - started
    try {
      expect(a.bundlerUrl).not.toBe(b.bundlerUrl)
      expect(a).toMatchObject({ chainId: 31337, authToken: expect.stringMatching(/^[0-9a-f]{64}$/) })
      expect(a.addresses?.entryPointV07).toBe(entryPoint07Address)
      const dapp = await a.createDapp({ name: 'my-dapp' })
      expect(dapp).toEqual({
        name: 'my-dapp',
        apiKey: expect.any(String),
        paymasterUrl: a.paymasterUrl(dapp.apiKey),
        chainId: 31337,
      })
      // One chain, listed with its own URLs.
      expect(a.chains.map(({ chainId, bundlerUrl }) => ({ chainId, bundlerUrl }))).toEqual([
        { chainId: 31337, bundlerUrl: a.bundlerUrl },
      ])
      const receipt = await sendSponsoredV07Through({
        client: createPublicClient({ chain: a.chain, transport: http(a.rpcUrl!) }),
        bundlerUrl: a.bundlerUrl,
        paymasterUrl: dapp.paymasterUrl,
      })
      expect(receipt.success).toBe(true)
      // One call explains it (opstation_traceUserOperation), and formatExplanation prints it for a test's output.
      const explanation = await a.explain(receipt.userOpHash)
      expect(explanation).toMatchObject({ userOpHash: receipt.userOpHash, status: 'mined', reason: null })
      expect(explanation.phases.map((phase) => phase.name)).toContain('paymaster-validation')
      const text = formatExplanation(explanation)
      expect(text.split('\n')[0]).toBe(
        `UserOperation ${receipt.userOpHash}: mined (EntryPoint ${entryPoint07Address}, transaction ${receipt.receipt.transactionHash}, block ${receipt.receipt.blockNumber})`,
      )
      expect(text).toMatch(/^ {2}execution {13}ok {9}[\d,]+ \/ [\d,]+ callGasLimit/m)
      expect(text).toMatch(
        /^ {2}account-validation {4}ok .*\n {4}signature valid; valid from 0 to no expiry \(valid at \d+\)$/m,
      )
      await expect(a.explain(`0x${'ab'.repeat(32)}`)).rejects.toThrow(/unknown to this service \(-32004\)/)
      expect(childAnvils()).toHaveLength(2)
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
    console.log(`two instances started in ${Math.round(startMs)} ms`)
    expect(childAnvils()).toEqual([])
    await expect(fetch(a.dashboardUrl)).rejects.toThrow()
    expect(existsSync(a.dataDir)).toBe(false)
  }, 120_000)
})

// The public options (api/types.ts, shipped on their own) are the serve options: checked here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const optionsAreTheServeOptions: Same<keyof StartOpstationOptions, keyof ServiceConfigInput> = true
void optionsAreTheServeOptions
