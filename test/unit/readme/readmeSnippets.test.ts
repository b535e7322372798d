import { describe, expect, it } from 'vitest'
import { readReadmeCodeBlocks } from '../../helpers/readmeCodeBlocks'

/**
 * The README's snippets run as written: each block of code names the file it runs as in its first line, and a test
 * runs every named one. Blocks that list commands to type (installs, builds, `opstation serve`), data (the setup file,
 * checked by test/unit/setup) and text (the layout) are not snippets.
 */
const blocks = readReadmeCodeBlocks()

/** The named snippets that need more than `node <file>` in a project holding what they import, and who runs them. */
const RUN_ELSEWHERE: Record<string, string> = {
  'vitest.config.ts': 'test/integration/package/packInstall.test.ts (vitest in the installed project)',
  'globalSetup.ts': 'test/integration/package/packInstall.test.ts (vitest in the installed project)',
  'sponsored.test.ts': 'test/integration/package/packInstall.test.ts (vitest in the installed project)',
  'snapshots.test.ts': 'test/integration/package/packInstall.test.ts (vitest in the installed project)',
  'pool.mjs': 'test/integration/package/packInstall.test.ts (prool in the installed project)',
  'vitest.pool.config.ts':
    'test/integration/package/packInstall.test.ts (vitest and prool in the installed project)',
  'poolSetup.ts': 'test/integration/package/packInstall.test.ts (vitest and prool in the installed project)',
  'pooled.test.ts':
    'test/integration/package/packInstall.test.ts (vitest and prool in the installed project)',
  'session.sh': 'test/integration/docs/readmeCurlSession.test.ts (against a running service)',
}

describe('README snippets', () => {
  it('every block of JavaScript or TypeScript, and every shell block that calls the service with curl, names its file', () => {
    const unnamed = blocks.filter(
      (block) =>
        !block.file &&
        (/^(js|mjs|ts|tsx|javascript|typescript)$/.test(block.lang) ||
          (/^(sh|bash|shell)$/.test(block.lang) && /\bcurl\b/.test(block.code))),
    )
    expect(unnamed.map((block) => `README.md:${block.line} (${block.lang})`)).toEqual([])
  })

  it('every named snippet is run by a test: plain scripts by the package test, the others where listed', () => {
    const named = blocks.flatMap((block) => (block.file ? [block.file] : []))
    expect(new Set(named).size).toBe(named.length)
    const special = named.filter((file) => !/\.m?js$/.test(file) || file in RUN_ELSEWHERE)
    expect(special.sort()).toEqual(Object.keys(RUN_ELSEWHERE).sort())
  })
})
