/** The columns of the bench's table. */
export const BENCH_TABLE_HEADER = ['mode', 'measure', 'p50', 'p95', 'ops/s', 'note']

/** Rows as a table of padded columns under a header and a rule (the bench's printed form). */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd()
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}
