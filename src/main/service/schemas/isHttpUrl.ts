/** Whether a text is an absolute http(s) URL (a dApp webhook's URL: in the dashboard API and in setup files). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
