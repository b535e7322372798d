import { expect, type Locator, type Page } from '@playwright/test'

export class PaymastersScreen {
  constructor(readonly page: Page) {}

  /** Creates a dApp from the form; lands on its page. Returns its apiKey. */
  async create(name: string, options: { chain?: string } = {}): Promise<string> {
    await this.page.getByTestId('paymaster-name').fill(name)
    if (options.chain) await this.page.getByTestId('paymaster-chain').fill(options.chain)
    await this.page.getByTestId('paymaster-create').click()
    await expect(this.page.getByTestId('paymaster-page')).toBeVisible()
    await expect(this.page.getByTestId('page-title')).toHaveText(name)
    return (await this.page.getByTestId('paymaster-apikey').textContent())?.trim() ?? ''
  }

  createError(): Locator {
    return this.page.getByTestId('create-paymaster-error-message')
  }

  row(name: string): Locator {
    return this.page.getByTestId(`paymaster-row-${name}`)
  }

  /** The Activate / Deactivate button on the dApp's overview. */
  activeToggle(): Locator {
    return this.page.getByTestId('dapp-active-toggle')
  }

  statusBadge(): Locator {
    return this.page.getByTestId('dapp-status-badge')
  }

  async openTab(tab: 'overview' | 'policies' | 'contracts' | 'webhooks'): Promise<void> {
    await this.page.getByTestId(`tab-${tab}`).click()
  }
}
