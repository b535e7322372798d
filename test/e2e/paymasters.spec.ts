import { ENTRY_POINT_VERSIONS } from '../../src/shared/entryPointVersions'
import { expect, screenshot, test, testSharingService } from './fixtures'
import { ConsoleApp } from './pages/ConsoleApp'
import { PaymastersScreen } from './pages/PaymastersScreen'

// Its own service: the empty list of a new service, and the REST list holding its dApp alone.
test('create a dApp: apiKey, paymaster URL, listed; a duplicate name shows the server message', async ({
  app,
  service,
  api,
}) => {
  const ui = new ConsoleApp(app)
  const paymasters = new PaymastersScreen(app)
  await ui.open('paymasters')
  await expect(app.getByTestId('paymasters-empty')).toBeVisible()

  const apiKey = await paymasters.create('demo-dapp')
  expect(apiKey).toMatch(/\S{8,}/)
  await expect(app.getByTestId('paymaster-url')).toHaveText(
    service.paymasterUrlTemplate.replace('{apiKey}', apiKey),
  )
  await screenshot(app, 'paymaster-overview')

  // The REST API sees the same dApp.
  const listed = await api.rest<{ name: string; apiKey: string }[]>('GET', '/api/v2/public/sdk/paymaster')
  expect(listed.body.data).toEqual([expect.objectContaining({ name: 'demo-dapp', apiKey })])

  await ui.open('paymasters')
  await expect(paymasters.row('demo-dapp')).toContainText(apiKey)
  await expect(paymasters.row('demo-dapp').getByTestId('paymaster-gas-tank')).toHaveText('10 ETH')
  await app.getByTestId('paymaster-name').fill('demo-dapp')
  await app.getByTestId('paymaster-create').click()
  await expect(paymasters.createError()).toHaveText('paymaster_name_exists')

  await app.getByTestId('paymaster-name').fill('other')
  await app.getByTestId('paymaster-chain').fill('1')
  await app.getByTestId('paymaster-create').click()
  await expect(paymasters.createError()).toHaveText('Chain ID not supported')
  await screenshot(app, 'paymasters')
})

testSharingService(
  'policies: a spending limit, a validity window and the ERC20 premium are saved',
  async ({ app, api }) => {
    const paymasters = new PaymastersScreen(app)
    await new ConsoleApp(app).open('paymasters')
    const apiKey = await paymasters.create('policy-dapp')
    await paymasters.openTab('policies')
    await app.getByTestId('limit-add').click()
    await app.getByTestId('limit-threshold').fill('5')
    await app.getByTestId('policy-valid-until').fill('2099-01-01T12:00')
    await app.getByTestId('policy-premium').fill('12.5')
    await app.getByTestId('policies-save').click()
    await expect(app.getByTestId('policies-saved')).toBeVisible()
    await screenshot(app, 'paymaster-policies')

    const saved = await api.json<{
      data: { limits: { threshold: string; type: string }[]; premiumPercentage: number; validUntil: number }
    }>('GET', `/console/api/dapps/${apiKey}/policies`)
    expect(saved.body.data.limits).toEqual([
      expect.objectContaining({ threshold: '5', type: 'SMART_ACCOUNT' }),
    ])
    expect(saved.body.data.premiumPercentage).toBe(12.5)
    expect(saved.body.data.validUntil).toBeGreaterThan(4_000_000_000)

    // A server-side refusal is shown with its message.
    await app.getByTestId('policy-valid-after').fill('2099-06-01T12:00')
    await app.getByTestId('policies-save').click()
    await expect(app.getByTestId('policies-error-message')).toHaveText('validAfter must be before validUntil')
  },
)

testSharingService(
  'policies: a v0.9 block window is set in blocks, said to apply to EntryPoint v0.9 only, and refused with its message when too short',
  async ({ app, api }) => {
    const paymasters = new PaymastersScreen(app)
    await new ConsoleApp(app).open('paymasters')
    const apiKey = await paymasters.create('block-window-dapp')
    await paymasters.openTab('policies')
    await expect(app.getByTestId('policy-block-window-hint')).toContainText(
      'EntryPoint v0.9 only: v0.6, v0.7 and v0.8 read validUntil and validAfter as times, so their sponsorships keep the time window',
    )
    await expect(app.getByTestId('policy-block-valid-for')).toHaveCount(0)
    await app.getByTestId('policy-block-window').check()
    await app.getByTestId('policy-block-valid-for').fill('12')
    await app.getByTestId('policy-block-until').fill('5000')
    await app.getByTestId('policies-save').click()
    await expect(app.getByTestId('policies-saved')).toBeVisible()
    await screenshot(app, 'paymaster-policies-block-window')

    const saved = await api.json<{ data: { blockWindow: unknown } }>(
      'GET',
      `/console/api/dapps/${apiKey}/policies`,
    )
    expect(saved.body.data.blockWindow).toEqual({
      validForBlocks: 12,
      validAfterBlock: null,
      validUntilBlock: 5000,
    })

    await app.getByTestId('policy-block-valid-for').fill('1')
    await app.getByTestId('policies-save').click()
    await expect(app.getByTestId('policies-error-message')).toHaveText(
      'blockWindow.validForBlocks must be at least 2 (the bundler admits an operation only while it stays valid for 2 more blocks)',
    )

    // Unchecked, the policy goes back to time windows.
    await app.getByTestId('policy-block-window').uncheck()
    await app.getByTestId('policies-save').click()
    await expect(app.getByTestId('policies-saved')).toBeVisible()
    const cleared = await api.json<{ data: { blockWindow: unknown } }>(
      'GET',
      `/console/api/dapps/${apiKey}/policies`,
    )
    expect(cleared.body.data.blockWindow).toBeNull()
  },
)

testSharingService('gas tank: the balance on chain, a deposit and a withdrawal', async ({ app }) => {
  const paymasters = new PaymastersScreen(app)
  await new ConsoleApp(app).open('paymasters')
  await paymasters.create('tank-dapp')
  const balance = app.getByTestId('gas-tank-balance')
  await expect(balance).toHaveText('10 ETH')
  await app.getByTestId('gas-tank-amount').fill('2.5')
  await app.getByTestId('gas-tank-deposit').click()
  await expect(balance).toHaveText('12.5 ETH')
  await app.getByTestId('gas-tank-amount').fill('0.5')
  await app.getByTestId('gas-tank-withdraw').click()
  await expect(balance).toHaveText('12 ETH')
  await app.getByTestId('gas-tank-amount').fill('1000')
  await app.getByTestId('gas-tank-withdraw').click()
  await expect(app.getByTestId('gas-tank-error-message')).toContainText('less than')
  await screenshot(app, 'paymaster-gas-tank')
})

testSharingService(
  'gas tanks: one per EntryPoint version under one paymasterId; a deposit to the v0.7 tank raises only that one',
  async ({ app, api }) => {
    const paymasters = new PaymastersScreen(app)
    await new ConsoleApp(app).open('paymasters')
    const apiKey = await paymasters.create('tanks-dapp')
    type Tank = { entryPointVersion: string; verifyingPaymaster: string; balanceEth: string }
    const readTanks = async () =>
      (await api.rest<{ paymasterId: string; tanks: Tank[] }>('GET', `/console/api/dapps/${apiKey}/gas-tank`))
        .body.data
    const before = await readTanks()
    expect(before?.tanks.map((t: Tank) => t.entryPointVersion)).toEqual(['0.6', '0.7', '0.8', '0.9'])
    expect(new Set(before?.tanks.map((t: Tank) => t.verifyingPaymaster.toLowerCase())).size).toBe(
      ENTRY_POINT_VERSIONS.length,
    )

    // A row per version: the version, that version's verifying paymaster and its balance; one hint says why.
    await expect(app.getByTestId('gas-tank-hint')).toContainText('same paymasterId')
    // A tank per EntryPoint version.
    await expect(app.getByTestId('gas-tanks').locator('tbody tr')).toHaveCount(ENTRY_POINT_VERSIONS.length)
    for (const t of before?.tanks ?? []) {
      const row = app.getByTestId(`gas-tank-row-${t.entryPointVersion}`)
      await expect(row).toContainText(`v${t.entryPointVersion}`)
      await expect(app.getByTestId(`gas-tank-paymaster-${t.entryPointVersion}`)).toHaveAttribute(
        'title',
        t.verifyingPaymaster,
      )
      await expect(app.getByTestId(`gas-tank-balance-${t.entryPointVersion}`)).toHaveText('10 ETH')
    }

    await app.getByTestId('gas-tank-version').selectOption('0.7')
    await expect(app.getByTestId('gas-tank-row-0.7')).toHaveAttribute('data-selected', 'true')
    await expect(app.getByTestId('gas-tank-deposit')).toHaveText('Deposit to v0.7')
    await expect(app.getByTestId('gas-tank-balance')).toHaveText('10 ETH')
    await app.getByTestId('gas-tank-amount').fill('1')
    await app.getByTestId('gas-tank-deposit').click()
    await expect(app.getByTestId('gas-tank-balance-0.7')).toHaveText('11 ETH')
    await expect(app.getByTestId('gas-tank-balance')).toHaveText('11 ETH')
    await expect(app.getByTestId('gas-tank-balance-0.6')).toHaveText('10 ETH')
    await expect(app.getByTestId('gas-tank-balance-0.8')).toHaveText('10 ETH')
    await expect(app.getByTestId('gas-tank-balance-0.9')).toHaveText('10 ETH')

    // The API agrees: only the v0.7 tank grew, under the same paymasterId.
    const after = await readTanks()
    expect(after?.paymasterId).toBe(before?.paymasterId)
    expect(
      Object.fromEntries((after?.tanks ?? []).map((t: Tank) => [t.entryPointVersion, t.balanceEth])),
    ).toEqual({
      '0.6': '10',
      '0.7': '11',
      '0.8': '10',
      '0.9': '10',
    })
    await screenshot(app, 'paymaster-gas-tanks')
  },
)

testSharingService(
  'deactivate a dApp: marked inactive on its page and in the list, and activated again',
  async ({ app, api }) => {
    const ui = new ConsoleApp(app)
    const paymasters = new PaymastersScreen(app)
    type Listed = { apiKey: string; active: boolean }[]
    // The dApps other tests made on the worker's service (none on a service of its own), as they are now.
    const others = ((await api.rest<Listed>('GET', '/api/v2/public/sdk/paymaster')).body.data ?? []).map(
      ({ apiKey, active }: Listed[number]) => expect.objectContaining({ apiKey, active }),
    )
    await ui.open('paymasters')
    const apiKey = await paymasters.create('switch-dapp')
    await expect(paymasters.statusBadge()).toHaveText('active')

    await paymasters.activeToggle().click()
    await expect(paymasters.statusBadge()).toHaveText('inactive')
    await expect(paymasters.activeToggle()).toHaveText('Activate')
    await expect(app.getByTestId('paymaster-inactive')).toBeVisible()
    await screenshot(app, 'paymaster-inactive')
    const listed = await api.rest<Listed>('GET', '/api/v2/public/sdk/paymaster')
    expect(listed.body.data).toEqual([...others, expect.objectContaining({ apiKey, active: false })])

    await ui.open('paymasters')
    await expect(paymasters.row('switch-dapp').getByTestId('paymaster-inactive')).toHaveText('inactive')
    await screenshot(app, 'paymasters-inactive')

    await paymasters.row('switch-dapp').getByTestId('paymaster-link-switch-dapp').click()
    await paymasters.activeToggle().click()
    await expect(paymasters.statusBadge()).toHaveText('active')
    await ui.open('paymasters')
    await expect(paymasters.row('switch-dapp').getByTestId('paymaster-inactive')).toHaveCount(0)
  },
)
