// Builds the console (src/renderer → out/renderer) when it is missing or older than its sources,
// so `npm run serve` and `npm start` always serve the current console. Quiet when nothing to do.
// Returns 'fresh', 'built' or 'failed' (the package build stops on a failed one).
import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { newestMtime } from './newestMtime.mjs'
import { publishConsole } from './publishConsole.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const output = path.join(root, 'out', 'renderer', 'index.html')

export function buildConsoleIfStale() {
  if (!existsSync(path.join(root, 'src', 'renderer', 'index.html'))) return 'fresh'
  const sources = Math.max(
    newestMtime(path.join(root, 'src', 'renderer')),
    newestMtime(path.join(root, 'src', 'shared')),
    existsSync(path.join(root, 'vite.renderer.config.ts'))
      ? statSync(path.join(root, 'vite.renderer.config.ts')).mtimeMs
      : 0,
  )
  if (existsSync(output) && statSync(output).mtimeMs >= sources) return 'fresh'
  process.stderr.write('opstation: building the console (src/renderer → out/renderer)…\n')
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'vite.renderer.config.ts',
      '--logLevel',
      'warn',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  if (result.status !== 0) {
    process.stderr.write(
      'opstation: the console build failed; the service runs, /console/ will say it is not built\n',
    )
    return 'failed'
  }
  publishConsole()
  return 'built'
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildConsoleIfStale()
