#!/usr/bin/env node
/**
 * `node bench/summarizeCpuProfile.mjs <file.cpuprofile> [--skip-ms N] [--top N] [--callers name]`: where a V8 CPU profile (node
 * --cpu-prof; BENCH_SERVICE_NODE_ARGS for the bench's service) spent its time: self time by function and by file,
 * total (inclusive) time by function, in ms and as a share of the busy (non-idle) samples. `--skip-ms`: leave out the
 * first N ms of the profile (the start, before the measured phase).
 */
import { readFileSync } from 'node:fs'

const args = process.argv.slice(2)
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a))
const option = (name, fallback) => {
  const at = args.indexOf(name)
  return at === -1 ? fallback : Number(args[at + 1])
}
if (!file) {
  console.error('usage: node bench/summarizeCpuProfile.mjs <file.cpuprofile> [--skip-ms N] [--top N]')
  process.exit(2)
}
const skipMs = option('--skip-ms', 0)
/** `--callers <name>`: also the call paths (4 frames up, Node's own left out) of the samples whose own function is <name>. */
const callersOf = args.includes('--callers') ? args[args.indexOf('--callers') + 1] : undefined
const callers = new Map()
const top = option('--top', 30)
const profile = JSON.parse(readFileSync(file, 'utf8'))

const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parentOf = new Map()
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)

/** Short name of where a node's function lives: the path after node_modules/ or src/, with its line. */
const where = (frame) => {
  const url = frame.url.replace(/^file:\/\//, '')
  const short = url.includes('node_modules/')
    ? url.slice(url.lastIndexOf('node_modules/') + 13)
    : url.replace(/^.*?\/(src|out|bench|node:)/, '$1')
  return short || '(native)'
}
const label = (frame) => `${frame.functionName || '(anonymous)'} ${where(frame)}:${frame.lineNumber + 1}`

const self = new Map()
const selfByFile = new Map()
const total = new Map()
let busyUs = 0
let idleUs = 0
let at = 0
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0
  at += delta
  if (at / 1000 < skipMs) return
  const node = byId.get(id)
  const name = node.callFrame.functionName
  if (name === '(idle)') {
    idleUs += delta
    return
  }
  busyUs += delta
  self.set(label(node.callFrame), (self.get(label(node.callFrame)) ?? 0) + delta)
  selfByFile.set(where(node.callFrame), (selfByFile.get(where(node.callFrame)) ?? 0) + delta)
  if (callersOf && name === callersOf) {
    const path = []
    for (let n = parentOf.get(id); n !== undefined && path.length < 4; n = parentOf.get(n)) {
      const frame = byId.get(n).callFrame
      if (!frame.url.startsWith('node:') && frame.url !== '') path.push(label(frame))
    }
    const key = path.join(' < ')
    callers.set(key, (callers.get(key) ?? 0) + delta)
  }
  const seen = new Set()
  for (let n = id; n !== undefined; n = parentOf.get(n)) {
    const key = label(byId.get(n).callFrame)
    if (seen.has(key)) continue
    seen.add(key)
    total.set(key, (total.get(key) ?? 0) + delta)
  }
})

const print = (title, map) => {
  console.log(`\n${title}`)
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${(us / 1000).toFixed(1).padStart(9)} ms ${((us / busyUs) * 100).toFixed(1).padStart(5)} %  ${key}`,
    )
  }
}
console.log(
  `busy ${(busyUs / 1000).toFixed(0)} ms, idle ${(idleUs / 1000).toFixed(0)} ms (after the first ${skipMs} ms)`,
)
print('self time by function', self)
print('self time by file', selfByFile)
print('total time by function', total)
if (callersOf) print(`call paths of ${callersOf}`, callers)
