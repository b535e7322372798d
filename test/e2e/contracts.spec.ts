import { expect, screenshot, testSharingService as test } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { ContractsScreen } from './pages/ContractsScreen'

const COUNTER_ABI = JSON.stringify([
  { type: 'function', name: 'increment', inputs: [], outputs: [], stateMutability: 'nonpayable' },
  {
    type: 'function',
    name: 'setNumber',
    inputs: [{ name: 'n', type: 'uint256' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'number',
    inputs: [],
    outputs: [{ name: '', type: 'uint256' }],
    stateMutability: 'view',
  },
])
const ADDRESS = '0x1111111111111111111111111111111111111111'

test('add a contract with a pasted ABI, whitelist a method, edit, delete; REST errors are shown', async ({
  app,
  api,
}) => {
  const created = await api.rest<{ apiKey: string }>('POST', '/api/v2/public/sdk/paymaster', {
    name: 'contracts-dapp',
    type: 'HYBRID',
    chainId: 31337,
    version: '1.1.0',
  })
  const apiKey = created.body.data!.apiKey
  const ui = new ConsoleApp(app)
  const contracts = new ContractsScreen(app)
  await app.reload()
  await ui.open('contracts')
  // The worker's service holds other tests' dApps: this test's is picked.
  await ui.pickDapp('contracts-dapp')
  await expect(app.getByTestId('contracts-empty')).toBeVisible()

  // A broken ABI is explained before anything is sent.
  await contracts.fill({ name: 'Counter', address: ADDRESS, abi: '[{"type":' })
  await expect(contracts.abiError()).toContainText('not valid JSON')

  // Only callable methods are offered (the view `number` is not).
  await contracts.fill({ name: 'Counter', address: ADDRESS, abi: COUNTER_ABI })
  await expect(app.getByTestId('new-method-increment')).toBeVisible()
  await expect(app.getByTestId('new-method-setNumber')).toBeVisible()
  await expect(app.getByTestId('new-method-number')).toHaveCount(0)
  await contracts.whitelistNew(['increment'])
  await contracts.submit()
  await expect(contracts.card('Counter')).toContainText('Sponsored: increment')

  const listed = await api.rest<{ whitelistedMethods: string[] }[]>(
    'GET',
    '/api/v2/public/sdk/smart-contract',
    undefined,
    apiKey,
  )
  expect(listed.body.data?.[0]?.whitelistedMethods).toEqual(['increment'])

  // Same address again: the server's message.
  await contracts.fill({ name: 'Counter2', address: ADDRESS, abi: COUNTER_ABI })
  await contracts.submit()
  await expect(contracts.addError()).toHaveText('Smart contract address already exists')

  // Edit the whitelist.
  await contracts.setMethod('Counter', 'setNumber', true)
  await contracts.saveWhitelist('Counter')
  await expect(contracts.card('Counter')).toContainText('Sponsored: increment, setNumber')
  await screenshot(app, 'contracts')

  await contracts.delete('Counter')
  await expect(app.getByTestId('contracts-empty')).toBeVisible()
  const after = await api.rest<unknown[]>('GET', '/api/v2/public/sdk/smart-contract', undefined, apiKey)
  expect(after.body.data).toEqual([])
})
