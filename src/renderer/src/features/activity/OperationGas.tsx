import type { UserOperationView } from '../../../../shared/api/userOperations'
import { Kv } from '../../components/Kv'
import { formatEth, formatNumber } from '../../lib/format'
import { GasLimits } from './GasLimits'
import { listGasLimits } from './gasLimits'

/** Gas: the limits the operation carried against what it used and cost once mined. */
export function OperationGas({ record }: { record: UserOperationView }) {
  const percent = record.gasUsedPercent
  return (
    <>
      <GasLimits limits={listGasLimits(record.gas, record.paymaster !== null)} testId="operation-gas">
        <Kv label="limit total">
          <span className="mono">{formatNumber(record.gasLimitTotal)}</span>
        </Kv>
        <Kv label="actual gas used">
          <span className="mono">{record.actualGasUsed ? formatNumber(record.actualGasUsed) : '—'}</span>
        </Kv>
        <Kv label="used of limit">
          <span className="mono">{percent === null ? '—' : `${percent}%`}</span>
        </Kv>
        <Kv label="actual cost">
          <span className="mono">{record.actualGasCost ? formatEth(record.actualGasCost, 8) : '—'}</span>
        </Kv>
      </GasLimits>
      {percent !== null ? (
        <div className="gauge" title={`${percent}% of the gas limit used`}>
          <div className="gauge-fill" style={{ width: `${Math.min(100, percent)}%` }} />
        </div>
      ) : null}
    </>
  )
}
