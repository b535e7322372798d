import { type Address, encodeFunctionData } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { createDapp, registerToken } from '../paymaster/paymasterTestKit'

export type ClientTestSetup = {
  service: TestService
  dapp: { apiKey: string; paymasterUrl: string }
  /** The test token, registered with the dApp with `mint` whitelisted. */
  token: Address
  /** A call of the test token's open `mint`. */
  mint: (to: Address, amount: bigint) => { to: Address; data: `0x${string}` }
}

/**
 * One service for the file's client tests (started before them, disposed after), with a dApp whose whitelist
 * sponsors the test token's `mint`. Read the fields inside tests, once the setup has run.
 */
export function withClientTestService(): ClientTestSetup {
  const setup = {} as ClientTestSetup
  beforeAll(async () => {
    setup.service = await startTestService()
    setup.dapp = await createDapp(setup.service)
    setup.token = await registerToken(setup.service, setup.dapp.apiKey, ['mint'])
    setup.mint = (to, amount) => ({
      to: setup.token,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }),
    })
  }, 60_000)
  afterAll(async () => {
    await setup.service?.dispose()
  })
  return setup
}
