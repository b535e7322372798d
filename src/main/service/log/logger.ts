/** Minimal structured logger used across the service. Fastify's pino logger satisfies it. */
export type Logger = {
  debug: (obj: object | string, msg?: string) => void
  info: (obj: object | string, msg?: string) => void
  warn: (obj: object | string, msg?: string) => void
  error: (obj: object | string, msg?: string) => void
}

/** A logger that discards everything (tests, library use). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
}

/** A logger that adds `fields` to every line of `log` (one chain's lines in a service of several name their chain). */
export function withLogFields(log: Logger, fields: Record<string, unknown>): Logger {
  const line =
    (level: keyof Logger) =>
    (obj: object | string, msg?: string): void =>
      typeof obj === 'string' ? log[level]({ ...fields }, obj) : log[level]({ ...fields, ...obj }, msg)
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') }
}
