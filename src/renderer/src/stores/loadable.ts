import { errorMessage, isNotAvailable } from '../api/http'

/** The state of one fetched resource: what the screens render from. */
export type Loadable<T> = {
  data: T | undefined
  loading: boolean
  error: string | null
  /** The service does not have this route (a feature not shipped yet). */
  notAvailable: boolean
  /** ms timestamp of the last successful load. */
  loadedAt: number | null
}

export function idle<T>(): Loadable<T> {
  return { data: undefined, loading: false, error: null, notAvailable: false, loadedAt: null }
}

export function loading<T>(previous: Loadable<T> | undefined): Loadable<T> {
  return { ...(previous ?? idle<T>()), loading: true, error: null }
}

export function loaded<T>(data: T): Loadable<T> {
  return { data, loading: false, error: null, notAvailable: false, loadedAt: Date.now() }
}

export function failed<T>(previous: Loadable<T> | undefined, err: unknown): Loadable<T> {
  return {
    ...(previous ?? idle<T>()),
    loading: false,
    error: errorMessage(err),
    notAvailable: isNotAvailable(err),
  }
}
