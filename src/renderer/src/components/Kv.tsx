import type { ReactNode } from 'react'

/** One label/value pair of a `kv-grid`. */
export function Kv({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="kv">
      <span>{label}</span>
      {children}
    </div>
  )
}
