import { create } from 'zustand'

/** A wire field's value as the replay form edits it: hex strings as they are, objects (eip7702Auth) as JSON. */
export type ReplayFields = Record<string, string>

/** An operation brought from Activity into the Sandbox, to edit and simulate again before sending. */
export type Replay = {
  /** The operation it came from. */
  fromUserOpHash: string
  entryPoint: string
  /** The chain it was sent on, when the service runs several (the first chain otherwise). */
  chainId?: number
  fields: ReplayFields
  /** What was changed from the operation as sent to match the chain now (its nonce, its deployment). */
  changes: string[]
}

type ReplayState = {
  replay: Replay | null
  open: (replay: Replay) => void
  setField: (name: string, value: string) => void
  /** Replaces every field (signed again, brought up to date), saying what changed. */
  setFields: (fields: ReplayFields, changes: string[]) => void
  close: () => void
}

/** The operation's wire fields as the form's text: strings as they are, anything else as JSON. */
export function toReplayFields(userOperation: Record<string, unknown>): ReplayFields {
  return Object.fromEntries(
    Object.entries(userOperation)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  )
}

/** The form's text back as a wire operation: JSON fields parsed, empty optional fields left out. */
export function toUserOperation(fields: ReplayFields): Record<string, unknown> {
  const op: Record<string, unknown> = {}
  for (const [name, text] of Object.entries(fields)) {
    const value = text.trim()
    if (value === '') continue
    if (value.startsWith('{') || value.startsWith('[')) {
      try {
        op[name] = JSON.parse(value)
      } catch (err) {
        throw new Error(`${name} is not valid JSON: ${(err as Error).message}`)
      }
    } else op[name] = value
  }
  return op
}

/** The Sandbox's replayed operation ("Open in Sandbox" on an operation's page). */
export const useReplayStore = create<ReplayState>()((set) => ({
  replay: null,
  open(replay) {
    set({ replay })
  },
  setField(name, value) {
    set((s) => (s.replay ? { replay: { ...s.replay, fields: { ...s.replay.fields, [name]: value } } } : {}))
  },
  setFields(fields, changes) {
    set((s) => (s.replay ? { replay: { ...s.replay, fields, changes } } : {}))
  },
  close() {
    set({ replay: null })
  },
}))
