import { expect, type Locator, type Page } from '@playwright/test'

export class WebhooksScreen {
  constructor(readonly page: Page) {}

  async register(url: string, method: 'GET' | 'POST' = 'POST'): Promise<Locator> {
    await this.page.getByTestId('webhook-url').fill(url)
    await this.page.getByTestId('webhook-method').selectOption(method)
    await this.page.getByTestId('webhook-register').click()
    const card = this.card(url)
    await expect(card).toBeVisible()
    return card
  }

  card(url: string): Locator {
    return this.page.locator(`[data-webhook-url="${url}"]`)
  }

  registerError(): Locator {
    return this.page.getByTestId('register-webhook-error-message')
  }

  async toggle(url: string): Promise<void> {
    await this.card(url).getByTestId('webhook-toggle').click()
  }

  async delete(url: string): Promise<void> {
    await this.card(url).getByTestId('webhook-delete').click()
    await this.card(url).getByTestId('webhook-delete-confirm').click()
    await expect(this.card(url)).toHaveCount(0)
  }
}
