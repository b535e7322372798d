import { expect, type Locator, type Page } from '@playwright/test'

export type Screen =
  | 'overview'
  | 'paymasters'
  | 'contracts'
  | 'webhooks'
  | 'activity'
  | 'sandbox'
  | 'time'
  | 'settings'

/** The console shell: left navigation, page title, error banners. */
export class ConsoleApp {
  constructor(readonly page: Page) {}

  async open(screen: Screen): Promise<void> {
    await this.page.getByTestId(`nav-${screen}`).click()
    await expect(this.page.getByTestId(`nav-${screen}`)).toHaveClass(/nav-item-active/)
  }

  title(): Locator {
    return this.page.getByTestId('page-title')
  }

  /** Selects the dApp in the header picker of the Contracts / Webhooks / Sandbox screens. */
  async pickDapp(name: string): Promise<void> {
    const picker = this.page.getByTestId('dapp-picker')
    const value = await picker.locator('option', { hasText: name }).first().getAttribute('value')
    await picker.selectOption(value ?? '')
  }
}
