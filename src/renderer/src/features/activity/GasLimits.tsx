import type { ReactNode } from 'react'
import { Kv } from '../../components/Kv'
import { formatNumber } from '../../lib/format'
import type { listGasLimits } from './gasLimits'

/** Gas limits as a grid (`<testId>-<field>` each), then what `children` adds to the grid. */
export function GasLimits({
  limits,
  testId,
  children,
}: {
  limits: ReturnType<typeof listGasLimits>
  testId: string
  children?: ReactNode
}) {
  return (
    <div className="kv-grid" data-testid={testId}>
      {limits.map(({ field, value }) => (
        <Kv key={field} label={field}>
          <span className="mono" data-testid={`${testId}-${field}`}>
            {formatNumber(value)}
          </span>
        </Kv>
      ))}
      {children}
    </div>
  )
}
