import { useMemo } from 'react'
import { buildFeed } from './feed'
import { useActivityStore } from './useActivityStore'

/** The feed's rows (operations and decisions, newest first) and the decisions by userOpHash, from the store. */
export function useFeed(): ReturnType<typeof buildFeed> {
  const ops = useActivityStore((s) => s.userOperations.data)
  const decisions = useActivityStore((s) => s.decisions.data)
  return useMemo(() => buildFeed(ops?.values() ?? [], decisions?.values() ?? []), [ops, decisions])
}
