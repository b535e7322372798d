import { useState } from 'react'

/** A destructive action that asks once inline ("Delete" → "Really delete?") instead of a modal. */
export function ConfirmButton({
  label,
  confirmLabel = `Really ${label.toLowerCase()}?`,
  onConfirm,
  disabled,
  testId,
}: {
  label: string
  confirmLabel?: string
  onConfirm: () => void
  disabled?: boolean
  testId?: string
}) {
  const [asking, setAsking] = useState(false)
  if (!asking) {
    return (
      <button
        type="button"
        className="btn btn-small btn-danger-ghost"
        disabled={disabled}
        data-testid={testId}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    )
  }
  return (
    <span className="confirm">
      <button
        type="button"
        className="btn btn-small btn-danger"
        data-testid={testId ? `${testId}-confirm` : undefined}
        onClick={() => {
          setAsking(false)
          onConfirm()
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="btn btn-small btn-ghost" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  )
}
