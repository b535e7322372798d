// `npm run serve`: the console rebuilt if its sources changed, then the headless service in this same process,
// stopped like a direct SIGTERM when npm stops (stopWhenParentExits.mjs), so that it stops its anvil and frees the
// port and the data folder's lock.

import { stopWhenParentExits } from '../bin/stopWhenParentExits.mjs'
import { buildConsoleIfStale } from './buildConsoleIfStale.mjs'

stopWhenParentExits()
buildConsoleIfStale()
process.argv.splice(2, 0, 'serve')
await import('../bin/opstation.js')
