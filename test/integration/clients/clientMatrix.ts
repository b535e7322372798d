import type { TestContext } from 'vitest'

/** One cell of the client support table: which client library, which account, which EntryPoint, which payment. */
export type ClientMatrixCell = {
  client: string
  account: string
  entryPoint: '0.6' | '0.7' | '0.8'
  payment: 'sponsored' | 'self-paid' | 'ERC20'
}

/**
 * Marks the running test as the proof of one cell of the README's client support table. The test run's reporter
 * (test/reporters/clientMatrixReporter.ts) writes the table from the cells and their outcomes.
 */
export function proveClientCell(context: TestContext, cell: ClientMatrixCell): void {
  ;(context.task.meta as { clientCell?: ClientMatrixCell }).clientCell = cell
}
