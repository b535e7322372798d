import { shortHex } from '../lib/format'
import { CopyButton } from './CopyButton'

/** Hex values (addresses, hashes, calldata) in monospace; shortened with the full value on hover. */
export function Hex({
  value,
  short = true,
  copy = false,
  testId,
}: {
  value: string | null | undefined
  short?: boolean
  copy?: boolean
  testId?: string
}) {
  if (!value) return <span className="muted">—</span>
  return (
    <span className="hex-wrap">
      <code className="mono" title={value} data-testid={testId}>
        {short ? shortHex(value, 8, 6) : value}
      </code>
      {copy ? <CopyButton value={value} /> : null}
    </span>
  )
}

/** A labelled value with a copy button: URLs, keys, addresses. */
export function CopyField({
  label,
  value,
  testId,
  hint,
}: {
  label: string
  value: string
  testId?: string
  hint?: string
}) {
  return (
    <div className="copy-field">
      <div className="copy-field-label">{label}</div>
      <div className="copy-field-value">
        <code className="mono" data-testid={testId}>
          {value || '—'}
        </code>
        {value ? <CopyButton value={value} testId={testId ? `${testId}-copy` : undefined} /> : null}
      </div>
      {hint ? <div className="hint">{hint}</div> : null}
    </div>
  )
}
