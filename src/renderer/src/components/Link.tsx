import type { MouseEvent, ReactNode } from 'react'
import { href, useRouteStore } from '../stores/useRouteStore'

/** An in-app link: a real <a href> (middle-click works) that navigates without reloading. */
export function Link({
  to,
  children,
  className,
  testId,
  title,
}: {
  to: string
  children: ReactNode
  className?: string
  testId?: string
  title?: string
}) {
  const navigate = useRouteStore((s) => s.navigate)
  return (
    <a
      href={href(to)}
      className={className}
      data-testid={testId}
      title={title}
      onClick={(event: MouseEvent) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return
        event.preventDefault()
        navigate(to)
      }}
    >
      {children}
    </a>
  )
}
