// `npm run typecheck`: both tsconfig projects (the service, tests and tools; the console), checked by TypeScript's
// native compiler (TypeScript 7, the `typescript-native` dev dependency): the same checks as TypeScript 5's `tsc`
// in about a third of its CPU time. TypeScript 5 (`typescript`) stays for what uses the compiler's JavaScript API
// (scripts/writeApiTypes.mjs) and for the package test's check of the shipped types.
// Extra arguments go to each check: `npm run typecheck -- --singleThreaded` (CI, where the check runs beside the
// tests and a second thread only competes with them).
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const NATIVE_TSC = path.join(root, 'node_modules', 'typescript-native', 'bin', 'tsc')
const PROJECTS = ['tsconfig.node.json', 'tsconfig.web.json']

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const project of PROJECTS) {
    const { status } = spawnSync(
      process.execPath,
      [NATIVE_TSC, '--noEmit', '-p', project, ...process.argv.slice(2)],
      { cwd: root, stdio: 'inherit' },
    )
    if (status !== 0) process.exit(status ?? 1)
  }
}
