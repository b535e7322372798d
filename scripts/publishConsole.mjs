// Publishes a console build (out/renderer-build, written by vite / electron-vite) into out/renderer, the folder
// the service serves, so that a running service never serves a half-replaced console: the new build's assets
// (content-hashed names) are added beside the old ones, then index.html is replaced in one rename, then the assets
// of builds before the previous one are removed (a page loaded from the previous index.html still finds its own).
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BUILD_DIR = path.join(root, 'out', 'renderer-build')
export const CONSOLE_DIR = path.join(root, 'out', 'renderer')
const MANIFEST = '.build-files.json'

/** Every file under `dir`, as paths relative to it with forward slashes. */
function listFiles(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name
    return entry.isDirectory() ? listFiles(path.join(dir, entry.name), relative) : [relative]
  })
}

function copyAtomic(from, to) {
  mkdirSync(path.dirname(to), { recursive: true })
  const tmp = path.join(path.dirname(to), `.${path.basename(to)}.${process.pid}.tmp`)
  copyFileSync(from, tmp)
  renameSync(tmp, to)
}

export function publishConsole({ buildDir = BUILD_DIR, consoleDir = CONSOLE_DIR } = {}) {
  if (!existsSync(path.join(buildDir, 'index.html'))) throw new Error(`no console build in ${buildDir}`)
  const files = listFiles(buildDir).filter((file) => file !== MANIFEST)
  const manifestPath = path.join(consoleDir, MANIFEST)
  const previous = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : []
  // 1. Everything but index.html: new names land beside the old ones; a same-named file is replaced whole.
  for (const file of files.filter((f) => f !== 'index.html'))
    copyAtomic(path.join(buildDir, file), path.join(consoleDir, file))
  // 2. The page that names them, in one rename.
  copyAtomic(path.join(buildDir, 'index.html'), path.join(consoleDir, 'index.html'))
  // 3. What neither this build nor the previous one holds.
  const keep = new Set([...files, ...previous, MANIFEST])
  for (const file of existsSync(consoleDir) ? listFiles(consoleDir) : [])
    if (!keep.has(file) && !path.basename(file).startsWith('.'))
      rmSync(path.join(consoleDir, file), { force: true })
  writeFileSync(manifestPath, JSON.stringify(files))
  rmSync(buildDir, { recursive: true, force: true })
  return { files: files.length, at: statSync(path.join(consoleDir, 'index.html')).mtimeMs }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) publishConsole()
