import { existsSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { makeTempDir } from './makeTempDir'
import { type CommandResult, runCommand } from './runCommand'

const repoRoot = path.resolve(import.meta.dirname, '..', '..')

/** Where a snippet's named packages come from: the app's dev dependencies, then the SDK client test package's. */
const PACKAGE_SOURCES = [
  path.join(repoRoot, 'node_modules'),
  path.join(repoRoot, 'test', 'sdk-clients', 'node_modules'),
]

/** The packages a snippet imports by bare name (`viem/accounts` names `viem`, `@scope/pkg/x` names `@scope/pkg`). */
export function readImportedPackages(code: string): string[] {
  const names = new Set<string>()
  for (const match of code.matchAll(/(?:^|\n)\s*import\s[^'"]*?['"]([^'"]+)['"]/g)) {
    const specifier = match[1]!
    if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) continue
    const parts = specifier.split('/')
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!)
  }
  return [...names].sort()
}

/**
 * A fresh ESM project outside the repository whose node_modules holds only the given packages (linked from where the
 * repository installed them), so a snippet that needs anything it does not name fails to import it. `overrides` maps a
 * package name to the folder to link instead (for example `opstation` to an unpacked tarball).
 */
export async function createSnippetProject(
  packages: string[],
  overrides: Record<string, string> = {},
): Promise<{
  dir: string
  run: (file: string, code: string, env?: NodeJS.ProcessEnv) => Promise<CommandResult>
}> {
  const dir = await makeTempDir('opstation-snippet-')
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }))
  for (const name of packages) {
    const source = overrides[name] ?? PACKAGE_SOURCES.map((base) => path.join(base, name)).find(existsSync)
    if (!source) throw new Error(`no installed copy of ${name} to link into the snippet project`)
    const target = path.join(dir, 'node_modules', name)
    await mkdir(path.dirname(target), { recursive: true })
    await symlink(source, target, 'dir')
  }
  return {
    dir,
    async run(file, code, env) {
      await writeFile(path.join(dir, file), code)
      const command = file.endsWith('.sh') ? 'bash' : process.execPath
      return runCommand(command, [file], {
        cwd: dir,
        env: { ...process.env, ...env },
        what: `snippet ${file}`,
      })
    },
  }
}
