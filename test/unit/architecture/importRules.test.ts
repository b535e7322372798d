import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildImportGraph, findPackageImports, findViolations, globToRegExp } from './importGraph'
import { importRules, knownViolations } from './importRules'

const root = path.resolve(import.meta.dirname, '../../..')

describe('import rules', () => {
  const edges = buildImportGraph(root, ['src', 'test', 'scripts', 'bench'])

  it('the graph holds the relative imports of the source tree', () => {
    // A few thousand edges; one known import proves paths are repository-relative and resolved to files.
    expect(edges.length).toBeGreaterThan(1000)
    expect(edges).toContainEqual({
      from: 'src/main/service/entryPoint/index.ts',
      to: 'src/main/service/entryPoint/types.ts',
    })
  })

  it.each(importRules.map((rule) => [rule.why, rule] as const))('%s', (_, rule) => {
    const violations = findViolations(edges, [rule])
      .map((v) => `${v.from} -> ${v.to}`)
      .filter((edge) => !knownViolations.includes(edge))
    expect(violations).toEqual([])
  })

  it('the domain, the EntryPoint seam, the chain and the store never import Fastify (only the edges do)', () => {
    const below = [
      'bundler',
      'paymaster',
      'policy',
      'webhook',
      'sandbox',
      'setup',
      'gasTanks',
      'explain',
      'entryPoint',
      'chain',
      'store',
    ]
    expect(
      findPackageImports(
        root,
        below.map((dir) => `src/main/service/${dir}`),
        'fastify',
      ),
    ).toEqual([])
    // The check sees a Fastify import where there is one.
    expect(findPackageImports(root, ['src/main/service/server'], 'fastify').length).toBeGreaterThan(0)
  })

  it('every known violation still exists (fixed ones leave the list)', () => {
    const all = new Set(findViolations(edges, importRules).map((v) => `${v.from} -> ${v.to}`))
    expect(knownViolations.filter((edge) => !all.has(edge))).toEqual([])
  })

  it.each(importRules.map((rule) => [rule.why, rule] as const))('refuses its example: %s', (_, rule) => {
    expect(findViolations([rule.example], [rule])).toHaveLength(1)
  })
})

describe('the rule checker', () => {
  const fixture = mkdtempSync(path.join(tmpdir(), 'import-rules-'))
  afterAll(() => rmSync(fixture, { recursive: true, force: true }))
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true })
    writeFileSync(path.join(fixture, file), text)
  }
  write('src/low/index.ts', 'export const low = 1\n')
  write('src/low/v01/op.ts', "import { low } from '..'\nexport const op = low\n")
  write(
    'src/high/uses.ts',
    "import type { op } from '../low/v01/op'\nimport { low } from '../low'\nexport { low }\n",
  )
  write('src/high/dynamic.ts', "export const load = () => import('../low/v01/op.js')\n")
  write('src/low/upward.ts', "export * from '../high/uses'\n")

  it('resolves directory, extensionless, .js and type imports to files', () => {
    expect(buildImportGraph(fixture, ['src'])).toEqual(
      expect.arrayContaining([
        { from: 'src/high/uses.ts', to: 'src/low/v01/op.ts' },
        { from: 'src/high/uses.ts', to: 'src/low/index.ts' },
        { from: 'src/high/dynamic.ts', to: 'src/low/v01/op.ts' },
        { from: 'src/low/v01/op.ts', to: 'src/low/index.ts' },
        { from: 'src/low/upward.ts', to: 'src/high/uses.ts' },
      ]),
    )
  })

  it('reports each edge a rule forbids, and none its exception allows', () => {
    const violations = findViolations(buildImportGraph(fixture, ['src']), [
      { from: 'src/**', except: 'src/low/**', to: 'src/low/v[0-9]*/**', why: 'versions' },
      { from: 'src/low/**', to: 'src/{high,other}/**', why: 'layers' },
    ])
    expect(violations.map((v) => `${v.rule.why}: ${v.from} -> ${v.to}`).sort()).toEqual([
      'layers: src/low/upward.ts -> src/high/uses.ts',
      'versions: src/high/dynamic.ts -> src/low/v01/op.ts',
      'versions: src/high/uses.ts -> src/low/v01/op.ts',
    ])
  })

  it('globs: * stays in a segment, ** crosses them, braces and classes pick', () => {
    expect(globToRegExp('src/*.ts').test('src/a/b.ts')).toBe(false)
    expect(globToRegExp('src/**/b.ts').test('src/a/c/b.ts')).toBe(true)
    expect(globToRegExp('src/{a,b}/x.ts').test('src/b/x.ts')).toBe(true)
    expect(globToRegExp('src/{a,b}/x.ts').test('src/c/x.ts')).toBe(false)
    expect(globToRegExp('e/v[0-9]*/**').test('e/v06/index.ts')).toBe(true)
    expect(globToRegExp('e/v[0-9]*/**').test('e/validation/index.ts')).toBe(false)
  })
})
