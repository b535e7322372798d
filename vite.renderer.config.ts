import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The console (React renderer). Built into out/renderer-build, then published into out/renderer
 * (scripts/publishConsole.mjs: a running service never serves a half-replaced console) and served by the service
 * at /console/, both in the Electron window and in any browser (headless mode). Its asset URLs are absolute
 * (/console/assets/…), so every client-side route loads, however deep. `electron.vite.config.ts` reuses it.
 */
export const rendererConfig = {
  root: resolve(root, 'src/renderer'),
  base: '/console/',
  publicDir: false as const,
  plugins: [
    react(),
    // electron-vite sets base './' for a production renderer (a window that loads files); this console is served
    // over HTTP at /console/, where a relative base breaks every nested route (…/policies/assets/… is a 404).
    { name: 'opstation:console-base', enforce: 'post' as const, config: () => ({ base: '/console/' }) },
  ],
  build: {
    outDir: resolve(root, 'out/renderer-build'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: { input: resolve(root, 'src/renderer/index.html') },
  },
  server: {
    // `vite --config vite.renderer.config.ts` for live editing: the API comes from a running service.
    proxy: {
      '/console/api': process.env.OPSTATION_URL ?? 'http://127.0.0.1:4337',
      '/api': process.env.OPSTATION_URL ?? 'http://127.0.0.1:4337',
    },
  },
}

export default defineConfig(rendererConfig)
