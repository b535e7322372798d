import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'electron-vite'
import { rendererConfig } from './vite.renderer.config'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * Desktop build: main (ESM; lowdb and steno are ESM-only and are bundled in), preload (CommonJS: a
 * sandboxed preload cannot be an ES module) and the renderer (the same config the service serves at /console/).
 */
export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      externalizeDeps: { exclude: ['lowdb', 'steno'] },
      rolldownOptions: { input: { index: resolve(root, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      externalizeDeps: true,
      rolldownOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig,
})
