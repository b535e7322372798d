import { expect, type Locator, type Page } from '@playwright/test'

export class ActivityScreen {
  constructor(readonly page: Page) {}

  feedRow(kind: 'op' | 'decision', status: string): Locator {
    return this.page.getByTestId(`feed-${kind}-${status.replace(/ /g, '-')}`)
  }

  async open(kind: 'op' | 'decision', status: string): Promise<void> {
    await expect(this.feedRow(kind, status).first()).toBeVisible({ timeout: 20_000 })
    await this.feedRow(kind, status).first().click()
  }

  detail(): Locator {
    return this.page.getByTestId('activity-detail')
  }
}
