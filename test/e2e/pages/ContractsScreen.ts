import { expect, type Locator, type Page } from '@playwright/test'

export class ContractsScreen {
  constructor(readonly page: Page) {}

  async fill(input: { name: string; address: string; abi: string }): Promise<void> {
    await this.page.getByTestId('contract-name').fill(input.name)
    await this.page.getByTestId('contract-address').fill(input.address)
    await this.page.getByTestId('contract-abi').fill(input.abi)
  }

  /** Ticks the methods to whitelist in the add form (the ABI must be filled first). */
  async whitelistNew(methods: string[]): Promise<void> {
    for (const m of methods) await this.page.getByTestId(`new-method-${m}`).check()
  }

  async submit(): Promise<void> {
    await this.page.getByTestId('contract-add').click()
  }

  card(name: string): Locator {
    return this.page.getByTestId(`contract-${name}`)
  }

  addError(): Locator {
    return this.page.getByTestId('add-contract-error-message')
  }

  abiError(): Locator {
    return this.page.getByTestId('contract-abi-error')
  }

  async setMethod(contract: string, method: string, on: boolean): Promise<void> {
    const box = this.card(contract).getByTestId(`method-${method}`)
    if (on) await box.check()
    else await box.uncheck()
  }

  async saveWhitelist(contract: string): Promise<void> {
    await this.card(contract).getByTestId('contract-save').click()
    await expect(this.card(contract).getByTestId('contract-save')).toHaveCount(0)
  }

  async delete(contract: string): Promise<void> {
    await this.card(contract).getByTestId('contract-delete').click()
    await this.card(contract).getByTestId('contract-delete-confirm').click()
    await expect(this.card(contract)).toHaveCount(0)
  }
}
