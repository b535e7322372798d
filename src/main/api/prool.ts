/**
 * Opstation as a prool instance: `import { opstation } from 'opstation/prool'` (prool is an optional peer
 * dependency). Each instance runs the same service as `startOpstation()` in this process, on the port prool gives
 * it, with a fresh data folder; `stop()` stops it and removes the folder. prool's `Pool` and `Server` start, stop
 * and restart instances by key, as they do anvil and Alto.
 */
import { Instance } from 'prool'
import { installPromiseWithResolvers } from './installPromiseWithResolvers.js'
import { startOpstation } from './startOpstation.js'
import type { Opstation, StartOpstationOptions } from './types.js'

installPromiseWithResolvers()

export type OpstationInstanceParameters = StartOpstationOptions

/**
 * Defines an Opstation instance. `port` is where it listens when started on its own (default 0: any free port,
 * read back from `instance.port` once started); a pool gives each instance its own. `_internal.opstation` is the
 * running Opstation (its URLs, `authToken`, `createDapp`, ...) while the instance is started.
 *
 * @example
 * const instance = opstation()
 * await instance.start()
 * const { bundlerUrl, createDapp } = instance._internal.opstation!
 * await instance.stop()
 */
export const opstation = Instance.define((parameters?: OpstationInstanceParameters) => {
  const { host = '127.0.0.1', port = 0, ...options } = parameters ?? {}
  let running: Opstation | undefined
  return {
    _internal: {
      /** The running Opstation; undefined while the instance is stopped. */
      get opstation(): Opstation | undefined {
        return running
      },
    },
    host,
    name: 'opstation',
    port,
    async start({ port: givenPort = port }, { emitter, setEndpoint }) {
      running = await startOpstation({ ...options, host, port: givenPort })
      setEndpoint?.({ port: Number(new URL(running.dashboardUrl).port) })
      emitter.emit('message', `opstation listening on ${running.dashboardUrl}`)
      emitter.emit('listening')
    },
    async stop() {
      const stopping = running
      running = undefined
      await stopping?.stop()
    },
  }
})

export type OpstationInstance = ReturnType<typeof opstation>
