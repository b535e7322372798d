/**
 * A shared/exclusive gate: any number of `shared` runs at once, an `exclusive` run alone (it waits for the shared
 * runs in flight to end, and holds new ones back until it is done). The journal's writes are shared; a checkpoint
 * (a whole-state save) is exclusive, so the state it saves holds exactly the writes journaled before it.
 */
export function createWriteGate() {
  let active = 0
  let drained: (() => void) | undefined
  let closed: Promise<void> | undefined

  const shared = async <T>(run: () => Promise<T>): Promise<T> => {
    while (closed) await closed
    active++
    try {
      return await run()
    } finally {
      active--
      if (active === 0) drained?.()
    }
  }

  const exclusive = async <T>(run: () => Promise<T>): Promise<T> => {
    while (closed) await closed
    let open = () => {}
    closed = new Promise<void>((resolve) => {
      open = resolve
    })
    try {
      if (active > 0)
        await new Promise<void>((resolve) => {
          drained = resolve
        })
      drained = undefined
      return await run()
    } finally {
      closed = undefined
      open()
    }
  }

  return { shared, exclusive }
}
