import { create } from 'zustand'

/** Client-side routing under /console/ (the service answers every /console/* path with the app). */
export const BASE = '/console/'

export type Route = {
  /** Path segments after /console/, e.g. ['paymasters', '<apiKey>', 'contracts']. */
  segments: string[]
  query: URLSearchParams
}

function readLocation(): Route {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : ''
  return {
    segments: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(location.search),
  }
}

type RouteState = Route & {
  /** `to` is relative to /console/ ("paymasters/abc?tab=x"). */
  navigate: (to: string, options?: { replace?: boolean }) => void
}

export const useRouteStore = create<RouteState>()((set) => ({
  ...readLocation(),
  navigate(to, options) {
    const url = `${BASE}${to.replace(/^\/+/, '')}`
    if (`${location.pathname}${location.search}` === url) return
    if (options?.replace) history.replaceState(null, '', url)
    else history.pushState(null, '', url)
    set(readLocation())
    window.scrollTo(0, 0)
  },
}))

window.addEventListener('popstate', () => useRouteStore.setState(readLocation()))

export function href(to: string): string {
  return `${BASE}${to.replace(/^\/+/, '')}`
}
