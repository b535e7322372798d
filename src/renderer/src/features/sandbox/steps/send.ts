import { rpcRequest } from '../../../api/rpc'
import { requireOperationAndEntryPoint, rpcExchange, type StepFunction } from './stepContext'

/** The bundler takes the signed operation. */
export const sendOperation: StepFunction = async ({ run, log, update, note }) => {
  const { op, entryPoint } = requireOperationAndEntryPoint(run)
  const hash = await rpcRequest<string>(
    run.config.bundlerUrl,
    'eth_sendUserOperation',
    [op, entryPoint],
    (e) => log(rpcExchange(e)),
  )
  update({ userOpHash: hash })
  note('accepted by the bundler')
}
