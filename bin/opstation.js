#!/usr/bin/env node
// Headless entry: runs the TypeScript service directly under Node through tsx (no build step needed).
import { register } from 'tsx/esm/api'

register()
await import('../src/main/cliMain.ts')
