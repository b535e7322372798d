#!/usr/bin/env node
// `npm run bench`: runs the TypeScript benchmark directly under Node through tsx (as bin/opstation.js does).
import { register } from 'tsx/esm/api'

register()
await import('../bench/runBench.ts')
