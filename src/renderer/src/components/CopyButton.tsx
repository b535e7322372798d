import { useState } from 'react'

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text)
      return
    } catch {}
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.appendChild(area)
  area.select()
  document.execCommand('copy')
  area.remove()
}

export function CopyButton({
  value,
  label = 'Copy',
  testId,
}: {
  value: string
  label?: string
  testId?: string
}) {
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      className="btn btn-small btn-ghost copy"
      data-testid={testId}
      title={`Copy ${value.length > 80 ? `${value.slice(0, 80)}…` : value}`}
      onClick={() => {
        void copyText(value).then(() => {
          setCopied(true)
          setTimeout(() => setCopied(false), 1200)
        })
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  )
}
