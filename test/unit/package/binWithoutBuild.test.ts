import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..')

it('an installed package without its build (packed with scripts off) says how to pack it, in one line, exit 1', async () => {
  const pkg = await makeTempDir('opstation-nobuild-')
  for (const file of ['bin/opstation.js', 'bin/stopWhenParentExits.mjs']) {
    mkdirSync(path.dirname(path.join(pkg, file)), { recursive: true })
    copyFileSync(path.join(repoRoot, file), path.join(pkg, file))
  }
  const run = spawnSync(process.execPath, [path.join(pkg, 'bin', 'opstation.js'), '--version'], {
    encoding: 'utf8',
  })
  expect(run.status).toBe(1)
  expect(run.stderr.trim().split('\n')).toEqual([
    'opstation: this package holds no build (dist/cli.js): it was packed without its prepack step; in the repository, pack it with: npm run pack',
  ])
})
