// Checks what the built bundles import against package.json: every package a bundle imports is a dependency (or,
// for the prool entry, the optional peer prool), and every dependency is imported by some bundle. So an installed
// package runs with its dependencies alone, and its dependencies are only what runs.
import { builtinModules } from 'node:module'

/** `viem/accounts` → `viem`, `@fastify/static/x` → `@fastify/static`. */
export function toPackageName(specifier) {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')
}

function isBuiltin(specifier) {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])
}

/**
 * `metafiles`: esbuild metafiles of the bundles. `peerImporters`: the outputs allowed to import peer
 * dependencies. Returns the packages each output imports; throws with every problem found.
 */
export function checkBundleImports({ manifest, metafiles, peerImporters = [] }) {
  const dependencies = new Set(Object.keys(manifest.dependencies ?? {}))
  const peers = new Set(Object.keys(manifest.peerDependencies ?? {}))
  const problems = []
  const used = new Set()
  const imports = {}
  for (const metafile of metafiles) {
    for (const [output, { imports: outputImports }] of Object.entries(metafile.outputs)) {
      const names = new Set(
        outputImports
          .filter((entry) => entry.external && !isBuiltin(entry.path))
          .map((entry) => toPackageName(entry.path)),
      )
      imports[output] = [...names].sort()
      for (const name of names) {
        used.add(name)
        if (dependencies.has(name)) continue
        if (peers.has(name) && peerImporters.includes(output)) continue
        problems.push(`${output} imports ${name}, which is not in dependencies`)
      }
    }
  }
  for (const name of dependencies)
    if (!used.has(name)) problems.push(`${name} is a dependency but no bundle imports it`)
  if (problems.length > 0) throw new Error(`bundle imports:\n  ${problems.join('\n  ')}`)
  return imports
}
