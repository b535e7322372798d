import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/** One relative import: the importing file and the file it resolves to, both relative to the repository root. */
export type ImportEdge = { from: string; to: string }

/**
 * A layering rule: no file matching `from` (and not `except`) may import a file matching `to`. Globs are
 * repository-relative, `*` within one path segment, `**` across segments.
 */
export type ImportRule = { from: string; to: string; except?: string; why: string }

export type ImportViolation = ImportEdge & { rule: ImportRule }

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs']
const SPECIFIER = /(?:from|import|require|vi\.mock|vi\.importActual)\s*\(?\s*['"](\.{1,2}(?:\/[^'"]*)?)['"]/g

function listSourceFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) listSourceFiles(full, out)
    else if (SOURCE_EXTENSIONS.includes(path.extname(name)) && !name.endsWith('.d.ts')) out.push(full)
  }
  return out
}

function resolveSpecifier(fromFile: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(fromFile), specifier)
  const stem = base.replace(/\.(js|mjs)$/, '')
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((ext) => stem + ext),
    ...SOURCE_EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ]
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null
}

/** Every relative import (type imports included) of the source files under `dirs`, resolved to files. */
export function buildImportGraph(root: string, dirs: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = []
  for (const file of dirs.flatMap((dir) => listSourceFiles(path.join(root, dir)))) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolveSpecifier(file, match[1] as string)
      if (target)
        edges.push({
          from: path.relative(root, file).split(path.sep).join('/'),
          to: path.relative(root, target).split(path.sep).join('/'),
        })
    }
  }
  return edges
}

/** The files under `dirs` that import the package `name` (or a subpath of it), repository-relative. */
export function findPackageImports(root: string, dirs: readonly string[], name: string): string[] {
  const pattern = new RegExp(
    `(?:from|import)\\s*\\(?\\s*['"]${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/[^'"]*)?['"]`,
  )
  return dirs
    .flatMap((dir) => listSourceFiles(path.join(root, dir)))
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
}

/** `*` within a segment, `**` across segments, `{a,b}` either, `[0-9]` a character class. */
export function globToRegExp(glob: string): RegExp {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*'
      i++
    } else if (c === '*') source += '[^/]*'
    else if (c === '{') source += '('
    else if (c === '}') source += ')'
    else if (c === ',' && source.lastIndexOf('(') > source.lastIndexOf(')')) source += '|'
    else if (c === '[' || c === ']') source += c
    else source += c.replace(/[.+?^$()|\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/** The edges that break a rule (each with the rule it breaks). */
export function findViolations(
  edges: readonly ImportEdge[],
  rules: readonly ImportRule[],
): ImportViolation[] {
  const compiled = rules.map((rule) => ({
    rule,
    from: globToRegExp(rule.from),
    to: globToRegExp(rule.to),
    except: rule.except ? globToRegExp(rule.except) : null,
  }))
  return edges.flatMap((edge) =>
    compiled
      .filter((c) => c.from.test(edge.from) && !c.except?.test(edge.from) && c.to.test(edge.to))
      .map(({ rule }) => ({ ...edge, rule })),
  )
}
