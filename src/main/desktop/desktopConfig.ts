import { parseServeArgs } from '../cli'
import type { ServiceConfigInput } from '../service/config'

/**
 * Switches Electron, Chromium or Node read themselves (a debugger, `electron-vite dev`, a sandbox-less Linux):
 * they reach process.argv too and are not Opstation's to reject.
 */
const RUNTIME_SWITCH =
  /^--(inspect|inspect-brk|remote-debugging-port|remote-debugging-pipe|no-sandbox|enable-logging|disable-gpu|ozone-platform|ozone-platform-hint|enable-features|disable-features|enable-wayland-ime|trace-warnings|js-flags|lang|log-file|v|vmodule)(=.*)?$/

/**
 * The user's arguments in Electron's argv: after the executable, and after the app folder when Electron runs an
 * unpackaged app (`electron . --port 0`; process.defaultApp). macOS adds `-psn_…` to apps opened from Finder.
 */
export function desktopServeArgs(argv: readonly string[], defaultApp: boolean): string[] {
  return argv.slice(defaultApp ? 2 : 1).filter((arg) => !RUNTIME_SWITCH.test(arg) && !/^-psn_/.test(arg))
}

/**
 * The desktop app's service config: the same flags and environment variables as `opstation serve`
 * (parseServeArgs; throws its UsageError), plus OPSTATION_PORT, read by the desktop app only, when no --port is given.
 */
export function readDesktopConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  defaultApp: boolean,
): ServiceConfigInput {
  const args = desktopServeArgs(argv, defaultApp)
  const input = parseServeArgs(args, env)
  const portGiven = args.some((arg) => arg === '--port' || arg.startsWith('--port='))
  const envPort = env.OPSTATION_PORT?.trim()
  if (!portGiven && envPort) input.port = parseServeArgs(['--port', envPort], env).port
  return input
}
