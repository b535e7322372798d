import { describe, expect, it } from 'vitest'
import { checkBundleImports, toPackageName } from '../../../scripts/checkBundleImports.mjs'

const output = (...paths: string[]) => ({
  imports: paths.map((path) => ({ path, kind: 'import-statement', external: true })),
})
const manifest = {
  dependencies: { viem: '^2', fastify: '^5' },
  peerDependencies: { prool: '^0.2' },
}

describe("the package build's import check (scripts/checkBundleImports.mjs)", () => {
  it('names packages from specifiers, scoped or not, with subpaths', () => {
    expect(['viem/accounts', '@fastify/static', '@scope/pkg/deep/file.js', 'zod'].map(toPackageName)).toEqual(
      ['viem', '@fastify/static', '@scope/pkg', 'zod'],
    )
  })

  it('passes when every import is a builtin or a dependency, every dependency is imported, and only the named outputs import peers', () => {
    const imports = checkBundleImports({
      manifest,
      metafiles: [
        { outputs: { 'dist/chunks/a.js': output('node:fs', 'path', 'viem/utils', 'fastify') } },
        { outputs: { 'dist/prool.js': output('prool') } },
      ],
      peerImporters: ['dist/prool.js'],
    })
    expect(imports).toEqual({ 'dist/chunks/a.js': ['fastify', 'viem'], 'dist/prool.js': ['prool'] })
  })

  it('lists every problem: an import that is no dependency, a peer where it is not allowed, an unused dependency', () => {
    expect(() =>
      checkBundleImports({
        manifest,
        metafiles: [{ outputs: { 'dist/cli.js': output('viem', 'tsx/esm/api', 'prool') } }],
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [Error: bundle imports:
        dist/cli.js imports tsx, which is not in dependencies
        dist/cli.js imports prool, which is not in dependencies
        fastify is a dependency but no bundle imports it]
    `)
  })
})
