import { toJson } from '../lib/format'
import { CopyButton } from './CopyButton'

export function JsonView({
  value,
  testId,
  maxHeight = 360,
}: {
  value: unknown
  testId?: string
  maxHeight?: number
}) {
  const text = typeof value === 'string' ? value : toJson(value)
  return (
    <div className="json-view">
      <div className="json-view-copy">
        <CopyButton value={text} />
      </div>
      <pre className="mono" style={{ maxHeight }} data-testid={testId}>
        {text}
      </pre>
    </div>
  )
}
