#!/usr/bin/env node
/**
 * Writes the README's client support table from a test run: every test that proves a cell of the table
 * (`proveClientCell` in test/integration/clients/clientMatrix.ts) carries it in its meta, which vitest's JSON report
 * keeps with the test's outcome. The table goes between the README's `client-matrix` markers.
 *
 * Usage: node scripts/write-client-table.mjs [test-results/vitest.json]
 * `npm test` runs it after a run that included the client tests; a partial run leaves the README as it is.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const reportFile = process.argv[2] ?? path.join(root, 'test-results', 'vitest.json')
const readme = path.join(root, 'README.md')
const START =
  '<!-- client-matrix:start (written by scripts/write-client-table.mjs from the test run; do not edit) -->'
const END = '<!-- client-matrix:end -->'
const ENTRY_POINTS = ['0.6', '0.7', '0.8', '0.9']
const PAYMENTS = ['sponsored', 'self-paid', 'ERC20']

/** The cells of a vitest JSON report, each with the outcome of the test that proves it (all must pass). */
export function collectCells(report) {
  const cells = new Map()
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'skipped' || test.status === 'pending') continue
      for (const cell of test.meta?.clientCells ?? []) {
        const key = JSON.stringify([cell.client, cell.account, cell.entryPoint, cell.payment])
        const passed = test.status === 'passed' && (cells.get(key)?.passed ?? true)
        cells.set(key, { ...cell, passed })
      }
    }
  }
  return [...cells.values()]
}

/** One row per client and account, one column per EntryPoint: the payments proven there (✅) or failing (❌). */
export function formatTable(cells) {
  const rows = new Map()
  for (const cell of cells) {
    const key = `${cell.client}\u0000${cell.account}`
    if (!rows.has(key)) rows.set(key, { client: cell.client, account: cell.account, byEntryPoint: {} })
    const row = rows.get(key)
    row.byEntryPoint[cell.entryPoint] = [...(row.byEntryPoint[cell.entryPoint] ?? []), cell]
  }
  const lines = [
    `| Client | Account | ${ENTRY_POINTS.map((v) => `EntryPoint v${v}`).join(' | ')} |`,
    `| --- | --- | ${ENTRY_POINTS.map(() => '---').join(' | ')} |`,
  ]
  const sorted = [...rows.values()].sort(
    (a, b) => a.client.localeCompare(b.client) || a.account.localeCompare(b.account),
  )
  for (const row of sorted) {
    const columns = ENTRY_POINTS.map((entryPoint) => {
      const list = (row.byEntryPoint[entryPoint] ?? []).sort(
        (a, b) => PAYMENTS.indexOf(a.payment) - PAYMENTS.indexOf(b.payment),
      )
      if (list.length === 0) return '–'
      return list.map((c) => `${c.passed ? '✅' : '❌'} ${c.payment}`).join(', ')
    })
    lines.push(`| ${row.client} | ${row.account} | ${columns.join(' | ')} |`)
  }
  return lines.join('\n')
}

function main() {
  if (!existsSync(reportFile)) {
    console.error(`no test report at ${reportFile}`)
    process.exit(1)
  }
  const cells = collectCells(JSON.parse(readFileSync(reportFile, 'utf8')))
  if (cells.length === 0) {
    console.log('client table: this run proved no client cell; README left as it is')
    return
  }
  const text = readFileSync(readme, 'utf8')
  const start = text.indexOf(START)
  const end = text.indexOf(END)
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`)
  const table = `${START}\n${formatTable(cells)}\n\n${cells.length} cells, each the outcome of its test in the last full run of \`npm test\`.\n${END}`
  writeFileSync(readme, text.slice(0, start) + table + text.slice(end + END.length))
  console.log(
    `client table: ${cells.length} cells (${cells.filter((c) => !c.passed).length} failing) written to README.md`,
  )
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main()
