import { consoleApi } from '../../../api/console'
import { logConsoleCall, requireOperation, type StepFunction } from './stepContext'

/** The service signs the operation with the account owner's key (the console never holds it). */
export const signOperation: StepFunction = async ({ run, log, update, note }) => {
  const { account } = run.config
  const op = requireOperation(run)
  const url = `/console/api/sandbox/accounts/${account.address}/sign`
  const body = { userOperation: op }
  const signed = await logConsoleCall(log, { label: 'sign', url, request: body }, () =>
    consoleApi.sandbox.signUserOperation(account.address, body),
  )
  update({ op: signed.userOperation, userOpHash: signed.userOpHash })
  note(`userOpHash ${signed.userOpHash.slice(0, 10)}…`)
}
