import type { Page } from '@playwright/test'

/**
 * Records what makes a console page load blank: a file of the console (its script, stylesheet, the page itself)
 * that fails or answers an error, wherever the page looked for it (a relative asset URL on a nested route asks for
 * /console/paymasters/<key>/assets/…), and uncaught errors in the page. The console's API (/console/api/, /api/)
 * is left out: its answers are the screens' business, and its event stream is aborted by every reload.
 */
export function watchConsoleLoad(page: Page): { failures: string[]; errors: string[] } {
  const failures: string[] = []
  const errors: string[] = []
  const isConsoleFile = (url: string, type: string) => {
    const { pathname } = new URL(url)
    if (pathname.startsWith('/console/api/') || pathname.startsWith('/api/')) return false
    return (
      pathname.startsWith('/console/') || ['document', 'script', 'stylesheet', 'image', 'font'].includes(type)
    )
  }
  page.on('requestfailed', (request) => {
    if (isConsoleFile(request.url(), request.resourceType()))
      failures.push(`failed ${request.url()}: ${request.failure()?.errorText ?? 'unknown'}`)
  })
  page.on('response', (response) => {
    if (response.status() >= 400 && isConsoleFile(response.url(), response.request().resourceType()))
      failures.push(`HTTP ${response.status()} ${response.url()}`)
  })
  page.on('pageerror', (err) => errors.push(err.message))
  return { failures, errors }
}
