'use strict'
// Loads a CommonJS file with V8's code cache beside it: the repository's CLI bundle (out/cli/opstation.cjs, 9 MB),
// whose compilation took about a quarter of the CPU of an `opstation serve` start (Node 20 keeps no code cache of its
// own, and none for an ES module). The cache is written when the process exits (then it holds the functions the run
// compiled), once per build: its file is named after the build id on the bundle's first line (`// build <id>`), so
// a new bundle never meets an old cache (V8 checks only the source's length and its own flags).
const { readFileSync, renameSync, writeFileSync } = require('node:fs')
const Module = require('node:module')
const path = require('node:path')
const vm = require('node:vm')

/** The build id on a bundle's first line, or undefined. */
function readBuildId(source) {
  return /^\/\/ build ([0-9a-f-]{8,})\n/.exec(source)?.[1]
}

/** Runs `file` as a CommonJS module (as `require` would) with its code cache; returns its exports. */
function requireWithCodeCache(file) {
  const source = readFileSync(file, 'utf8')
  const id = readBuildId(source)
  const cacheFile = id && `${file}.${id}.v8cache`
  let cachedData
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile)
  } catch {
    // None yet: this run writes it.
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected))
    process.once('exit', () => writeCodeCache(script, cacheFile))
  const dir = path.dirname(file)
  const loaded = new Module(file)
  loaded.filename = file
  loaded.paths = Module._nodeModulePaths(dir)
  script
    .runInThisContext()
    .call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, dir)
  loaded.loaded = true
  return loaded.exports
}

/** Writes the code cache through a temporary file, so that a start never reads half of one; a failure is no matter. */
function writeCodeCache(script, cacheFile) {
  const tmp = `${cacheFile}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, script.createCachedData())
    renameSync(tmp, cacheFile)
  } catch {
    // A read-only checkout: starts compile the bundle, as without a cache.
  }
}

module.exports = { requireWithCodeCache }
