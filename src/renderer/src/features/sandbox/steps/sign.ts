import { consoleApi } from '../../../api/console'
import { chainQuery, logConsoleCall, requireOperation, type StepFunction } from './stepContext'

/** The service signs the operation with the account owner's key (the console never holds it). */
export const signOperation: StepFunction = async ({ run, log, update, note }) => {
  const { account, chainId } = run.config
  const op = requireOperation(run)
  const url = `/console/api/sandbox/accounts/${account.address}/sign${chainQuery(run.config)}`
  const body = { userOperation: op }
  const signed = await logConsoleCall(log, { label: 'sign', url, request: body }, () =>
    consoleApi.sandbox.signUserOperation(account.address, body, chainId),
  )
  update({ op: signed.userOperation, userOpHash: signed.userOpHash })
  note(`userOpHash ${signed.userOpHash.slice(0, 10)}…`)
}
