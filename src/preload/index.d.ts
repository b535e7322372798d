import type { OpstationDesktopApi } from './api'

declare global {
  interface Window {
    /** Present only in the Electron window; the browser console works without it. */
    opstation?: OpstationDesktopApi
  }
}
