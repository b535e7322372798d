import { UsageError } from '../cli'
import { AppError } from '../service/errors'
import type { DesktopElectron } from './electronApi'
import { answersHealth, findRunningInstance, serviceBaseUrl } from './runningInstance'

export type StartupContext = { dataDir?: string; host?: string; port?: number }

/**
 * Tells the user, in a native dialog, why Opstation did not start and what to do; never a silent exit. A data
 * folder held by a running instance, or a port taken by one, offers to open that instance's console instead.
 * Resolves once the dialog is closed (and the console opened, if asked).
 */
export async function showStartupError(
  electron: Pick<DesktopElectron, 'dialog' | 'shell'>,
  err: unknown,
  context: StartupContext,
): Promise<void> {
  const message =
    err instanceof AppError ? err.shortMessage : err instanceof Error ? err.message : String(err)
  console.error(`opstation: ${message}`)
  if (err instanceof UsageError) {
    electron.dialog.showErrorBox(
      'Opstation: invalid command-line option',
      `${message}\n\nThe desktop app takes the same options as "opstation serve" (run "opstation serve --help" to list them).`,
    )
    return
  }
  if (/is in use by another Opstation instance/.test(message) && context.dataDir) {
    const running = await findRunningInstance(context.dataDir)
    const who = running.pid ? `another Opstation (pid ${running.pid})` : 'another Opstation'
    if (running.consoleUrl) {
      await offerConsole(electron, running.consoleUrl, {
        message: `The data folder is in use by ${who}`,
        detail: `${context.dataDir} is used by a running Opstation, whose console is at ${running.consoleUrl}. Use that one (its login token is in the output where it was started), or stop it and start the desktop app again, or start the desktop app with --data-dir <another folder>.`,
      })
      return
    }
    await electron.dialog.showMessageBox({
      type: 'error',
      title: 'Opstation',
      message: `The data folder is in use by ${who}`,
      detail: `${context.dataDir} is used by a running Opstation whose address is unknown here. Stop it (Ctrl-C in its terminal${running.pid ? `, or: kill ${running.pid}` : ''}) and start the desktop app again, or start the desktop app with --data-dir <another folder> (or OPSTATION_DATA_DIR).`,
      buttons: ['Quit'],
    })
    return
  }
  if (/already in use/.test(message) && context.port) {
    const baseUrl = serviceBaseUrl(context.host ?? '127.0.0.1', context.port)
    const detail = `Another program listens on port ${context.port}. Opstation does not move to another port by itself: the URLs your dApps and wallets use would change. Stop that program and start Opstation again, or start it with --port <n> (or --port 0 for any free port).`
    if (await answersHealth(baseUrl)) {
      await offerConsole(electron, `${baseUrl}/console/`, {
        message: `Port ${context.port} is already in use, by another Opstation`,
        detail: `${detail}\n\nIt looks like another Opstation: you can open its console instead.`,
      })
      return
    }
    await electron.dialog.showMessageBox({
      type: 'error',
      title: 'Opstation',
      message: `Port ${context.port} is already in use`,
      detail,
      buttons: ['Quit'],
    })
    return
  }
  electron.dialog.showErrorBox(
    'Opstation could not start',
    `${message}\n\nFix the cause above and start Opstation again. For details, start it from a terminal with --log-level debug${context.dataDir ? `; the data folder is ${context.dataDir}` : ''}.`,
  )
}

async function offerConsole(
  electron: Pick<DesktopElectron, 'dialog' | 'shell'>,
  consoleUrl: string,
  text: { message: string; detail: string },
): Promise<void> {
  const { response } = await electron.dialog.showMessageBox({
    type: 'warning',
    title: 'Opstation',
    ...text,
    buttons: ['Open its console', 'Quit'],
    defaultId: 0,
    cancelId: 1,
  })
  if (response === 0) await electron.shell.openExternal(consoleUrl)
}
