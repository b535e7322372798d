import { rpcRequest } from '../../../api/rpc'
import { withGasFields } from '../userOperationFields'
import { requireOperationAndEntryPoint, rpcExchange, type StepFunction } from './stepContext'

/** The bundler's gas estimate goes into the operation. */
export const estimateGas: StepFunction = async ({ run, log, update, note }) => {
  const { op, entryPoint } = requireOperationAndEntryPoint(run)
  const est = await rpcRequest<Record<string, string | number>>(
    run.config.bundlerUrl,
    'eth_estimateUserOperationGas',
    [op, entryPoint],
    (e) => log(rpcExchange(e)),
  )
  update({ op: withGasFields(op, est) })
  const gas = (field: string) => Number(est[field]).toLocaleString('en-US')
  note(
    `call ${gas('callGasLimit')} · verification ${gas('verificationGasLimit')} · preVerification ${gas('preVerificationGas')}`,
  )
}
