import type { TestContext } from 'vitest'

/** One cell of the client support table: which client library, which account, which EntryPoint, which payment. */
export type ClientMatrixCell = {
  client: string
  account: string
  entryPoint: '0.6' | '0.7' | '0.8' | '0.9'
  payment: 'sponsored' | 'self-paid' | 'ERC20'
}

/**
 * Marks the running test as the proof of cells of the README's client support table: vitest's JSON report keeps
 * them with the test's outcome, and scripts/write-client-table.mjs writes the table from that report.
 */
export function proveClientCell(context: TestContext, ...cells: ClientMatrixCell[]): void {
  const meta = context.task.meta as { clientCells?: ClientMatrixCell[] }
  meta.clientCells = [...(meta.clientCells ?? []), ...cells]
}
