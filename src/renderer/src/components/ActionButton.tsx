/**
 * A form's action button, in its own cell of the field row: shows `busyLabel` and is disabled while its
 * action runs. A submit button unless it has its own `onClick`.
 */
export function ActionButton({
  label,
  busyLabel,
  busy,
  disabled = false,
  testId,
  primary = true,
  onClick,
}: {
  label: string
  busyLabel: string
  busy: boolean
  disabled?: boolean
  testId: string
  primary?: boolean
  onClick?: () => void
}) {
  return (
    <div className="field field-action">
      <button
        type={onClick ? 'button' : 'submit'}
        className={primary ? 'btn btn-primary' : 'btn'}
        disabled={busy || disabled}
        data-testid={testId}
        onClick={onClick}
      >
        {busy ? busyLabel : label}
      </button>
    </div>
  )
}
