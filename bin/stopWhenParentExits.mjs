// Under an npm script the process tree is npm → sh -c → node: a SIGTERM to npm (what a process manager or an IDE's
// stop button sends) is passed to the shell, which exits without passing it on, leaving node (and, through it, the
// service and its anvil) running as orphans. This watches for the parent's exit and then stops this process the
// way a direct SIGTERM would. Outside npm (a service started from a shell and left running on purpose) it does
// nothing. One watch per process: `npm run serve` starts it, then bin/opstation.js asks again.
let watching = false

export function stopWhenParentExits(stop = () => process.kill(process.pid, 'SIGTERM')) {
  if (!process.env.npm_lifecycle_event || watching) return
  watching = true
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    process.stderr.write('opstation: npm stopped; stopping\n')
    stop()
  }, 250)
  timer.unref()
}
