import { randomBytes, randomUUID } from 'node:crypto'

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length)
  let out = ''
  for (const b of bytes) out += ALPHANUMERIC[b % ALPHANUMERIC.length]
  return out
}

/** An unguessable account token (256 bits). */
export function generateAuthToken(): string {
  return randomBytes(32).toString('hex')
}

/**
 * A key in Biconomy's shape (`nJPK7B3ru.dd7f7861-190d-41bd-af80-6877f74b8f44`): letters, digits, `.` and `-`
 * only, so it is valid in both the bundler URL (`[A-Za-z0-9.-]+`) and the paymaster URL.
 */
export function generateApiKey(): string {
  return `${randomAlphanumeric(9)}.${randomUUID()}`
}

export function generateId(): string {
  return randomUUID()
}
