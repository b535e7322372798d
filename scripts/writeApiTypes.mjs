// Writes the .d.ts of the programmatic API (dist/index.d.ts, dist/prool.d.ts and the files they import) with the
// TypeScript compiler: declarations of src/main/api/ and of the src/shared/ files they import (the data types the
// service and the console share, under dist/shared/). Its public types (api/types.ts) import nothing of the service,
// so the declarations stand alone; a check below refuses any that reach outside those.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const srcDir = path.join(root, 'src')
const apiDir = path.join(srcDir, 'main', 'api')
const sharedDir = path.join(srcDir, 'shared')

/** Bare imports a declaration may have: the package's own dependency (viem) and its optional peer (prool). */
const ALLOWED_PACKAGES = new Set(['viem', 'prool'])

export async function writeApiTypes({ outDir = path.join(root, 'dist') } = {}) {
  const ts = (await import('typescript')).default
  const config = ts.readConfigFile(path.join(root, 'tsconfig.node.json'), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const program = ts.createProgram(
    ['index.ts', 'prool.ts'].map((file) => path.join(apiDir, file)),
    {
      ...parsed.options,
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      rootDir: srcDir,
      outDir,
    },
  )
  // src/shared and its api/ folder (the wire types, e.g. the Explanation that `explain` returns).
  const emittedDirs = [apiDir, sharedDir, path.join(sharedDir, 'api')]
  const apiFiles = program
    .getSourceFiles()
    .filter((file) => emittedDirs.includes(path.dirname(path.resolve(file.fileName))))
  const written = []
  const diagnostics = []
  for (const file of apiFiles) {
    diagnostics.push(...program.getSemanticDiagnostics(file), ...program.getSyntacticDiagnostics(file))
    const emitted = program.emit(
      file,
      (emittedName, text) => {
        if (!emittedName.endsWith('.d.ts')) return
        // src/main/api/x → dist/x, src/shared/x → dist/shared/x (and the API's imports of src/shared follow).
        const fromApi = path.relative(path.join(outDir, 'main', 'api'), emittedName)
        const inApi = !fromApi.startsWith('..')
        const name = inApi ? path.join(outDir, fromApi) : emittedName
        const declaration = inApi ? text.replace(/(['"])\.\.\/\.\.\/shared\//g, '$1./shared/') : text
        mkdirSync(path.dirname(name), { recursive: true })
        writeFileSync(name, declaration)
        written.push(name)
      },
      undefined,
      true,
    )
    diagnostics.push(...emitted.diagnostics)
  }
  if (diagnostics.length > 0) {
    throw new Error(
      ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (name) => name,
        getCurrentDirectory: () => root,
        getNewLine: () => '\n',
      }),
    )
  }
  const kept = keepReachable(
    written,
    ['index.d.ts', 'prool.d.ts'].map((file) => path.join(outDir, file)),
  )
  return kept.map((file) => path.relative(outDir, file))
}

/** The relative and bare imports of a declaration file (not the ones its comments show). */
function listImports(file) {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1])
}

/**
 * Keeps the declarations the entries reach (removes the others, e.g. of internal helpers) and checks that each
 * import of theirs is another kept declaration, viem or prool.
 */
function keepReachable(written, entries) {
  const have = new Set(written)
  const reached = new Set()
  const visit = (file) => {
    if (reached.has(file)) return
    if (!have.has(file))
      throw new Error(`${path.basename(file)} is imported but is not a declaration of the API`)
    reached.add(file)
    for (const specifier of listImports(file)) {
      if (specifier.startsWith('.'))
        visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.d.ts')))
      else if (!ALLOWED_PACKAGES.has(specifier.split('/')[0]))
        throw new Error(`${path.basename(file)} imports ${specifier}: only viem and prool may be imported`)
    }
  }
  for (const entry of entries) visit(entry)
  for (const file of written) if (!reached.has(file)) rmSync(file)
  return [...reached]
}
