import { expect, type Locator, type Page } from '@playwright/test'

const CREATE_BUTTONS = {
  sa2: 'sandbox-create-sa2',
  simple: 'sandbox-create-simple',
  'simple-v07': 'sandbox-create-simple-v07',
  '7702': 'sandbox-create-7702',
  '7702-v09': 'sandbox-create-7702-v09',
  safe: 'sandbox-create-safe',
  kernel: 'sandbox-create-kernel',
  light: 'sandbox-create-light',
  nexus: 'sandbox-create-nexus',
} as const

export class SandboxScreen {
  constructor(readonly page: Page) {}

  /** Creates a local smart account (keys stay in the service) and returns its address. */
  async createAccount(type: keyof typeof CREATE_BUTTONS = 'sa2'): Promise<string> {
    return this.createAccountWith(CREATE_BUTTONS[type])
  }

  /** Creates an account with the create button `testId` (any kind of the grouped buttons); returns its address. */
  async createAccountWith(testId: string): Promise<string> {
    const picker = this.page.getByTestId('sandbox-account-picker')
    // The service's accounts are read: the picker of those it has, or the note that it has none.
    await expect(picker.or(this.page.getByTestId('sandbox-no-account'))).toBeVisible()
    const before = await picker.locator('option').count()
    await this.page.getByTestId(testId).click()
    await expect(picker.locator('option')).toHaveCount(before + 1)
    const address = (await this.page.getByTestId('sandbox-account-address').getAttribute('title')) ?? ''
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    return address
  }

  async mode(mode: 'SPONSORED' | 'ERC20' | 'SELF'): Promise<void> {
    await this.page.getByTestId(`mode-${mode}`).click()
  }

  /** Switches the call form to raw calldata and fills its target and, when given, its data. */
  async rawCall(to: string, data?: string): Promise<void> {
    await this.page.getByTestId('call-source-raw').click()
    await this.page.getByTestId('call-raw-to').fill(to)
    if (data !== undefined) await this.page.getByTestId('call-raw-data').fill(data)
  }

  /** Picks a registered contract's method (by name) and fills its typed arguments. */
  async contractCall(method: string, args: Record<string, string>): Promise<void> {
    await this.page.getByTestId('call-source-contract').click()
    const picker = this.page.getByTestId('call-method')
    const option = picker.locator('option', { hasText: `${method}(` }).first()
    await picker.selectOption((await option.getAttribute('value')) ?? '')
    for (const [name, value] of Object.entries(args))
      await this.page.getByTestId(`call-arg-${name}`).fill(value)
    await expect(this.page.getByTestId('call-summary')).toContainText(`.${method}(`)
  }

  /** Sends with every step run in order; waits until the run stops (done or a failed step). */
  async send(): Promise<void> {
    await this.page.getByTestId('sandbox-send').click()
    await expect(this.page.getByTestId('sandbox-run')).toBeVisible()
    await expect(this.page.locator('[data-testid^="step-"][data-status="running"]')).toHaveCount(0, {
      timeout: 60_000,
    })
  }

  /** A sponsored run of an empty call to 0x…dEaD (what a test sends when only the sending matters): mode, call, send. */
  async sendSponsoredEmptyCall(): Promise<void> {
    await this.mode('SPONSORED')
    await this.rawCall('0x000000000000000000000000000000000000dEaD', '0x')
    await this.send()
  }

  step(id: string): Locator {
    return this.page.getByTestId(`step-${id}`)
  }
}
