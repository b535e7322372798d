import { type ReactNode, useState } from 'react'

export type Column<T> = {
  id: string
  header: string
  /** CSS grid track, e.g. "120px" or "1fr". */
  width: string
  render: (row: T) => ReactNode
  className?: string
}

const OVERSCAN = 10

/**
 * A table that renders only the rows in view, so a feed of thousands of records stays fast. Rows have a
 * fixed height (`rowHeight`: 32 px holds one line, 40 px two); the body scrolls inside `height`.
 */
export function VirtualTable<T>({
  rows,
  columns,
  rowKey,
  onRowClick,
  height = 480,
  rowHeight = 32,
  testId,
  rowTestId,
  selectedKey,
  empty,
}: {
  rows: T[]
  columns: Column<T>[]
  rowKey: (row: T) => string
  onRowClick?: (row: T) => void
  height?: number
  rowHeight?: number
  testId?: string
  rowTestId?: (row: T) => string
  selectedKey?: string | null
  empty?: ReactNode
}) {
  const [scrollTop, setScrollTop] = useState(0)
  const template = columns.map((c) => c.width).join(' ')
  const viewport = Math.max(rowHeight, height)
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN)
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewport) / rowHeight) + OVERSCAN)
  const visible = rows.slice(first, last)
  const bodyHeight = Math.min(viewport, Math.max(rows.length, 1) * rowHeight)

  return (
    <div className="vtable" data-testid={testId} data-rows={rows.length}>
      <div className="vtable-head" style={{ gridTemplateColumns: template }}>
        {columns.map((c) => (
          <div key={c.id} className="vtable-cell">
            {c.header}
          </div>
        ))}
      </div>
      {rows.length === 0 ? (
        <div className="vtable-empty">{empty ?? 'Nothing yet.'}</div>
      ) : (
        <div
          className="vtable-body"
          style={{ height: bodyHeight }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        >
          <div style={{ height: rows.length * rowHeight, position: 'relative' }}>
            {visible.map((row, i) => {
              const key = rowKey(row)
              return (
                // biome-ignore lint/a11y/noStaticElementInteractions: role="button" and tabIndex are set when rows are clickable
                <div
                  key={key}
                  className={`vtable-row${onRowClick ? ' clickable' : ''}${selectedKey === key ? ' selected' : ''}`}
                  style={{ gridTemplateColumns: template, top: (first + i) * rowHeight, height: rowHeight }}
                  data-testid={rowTestId?.(row)}
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  onKeyDown={onRowClick ? (e) => e.key === 'Enter' && onRowClick(row) : undefined}
                  tabIndex={onRowClick ? 0 : undefined}
                  role={onRowClick ? 'button' : undefined}
                >
                  {columns.map((c) => (
                    <div key={c.id} className={`vtable-cell ${c.className ?? ''}`}>
                      {c.render(row)}
                    </div>
                  ))}
                </div>
              )
            })}
          </div>
        </div>
      )}
    </div>
  )
}
