import { rpcRequest } from '../../../api/rpc'
import { toHexQuantity } from '../userOperationFields'
import { requireOperation, rpcExchange, type StepFunction } from './stepContext'

/** The bundler's gas prices go into the operation. */
export const readGasFees: StepFunction = async ({ run, log, update, note }) => {
  const fees = await rpcRequest<{ maxFeePerGas: string; maxPriorityFeePerGas: string }>(
    run.config.bundlerUrl,
    'biconomy_getGasFeeValues',
    [],
    (e) => log(rpcExchange(e)),
  )
  const op = requireOperation(run)
  update({
    op: {
      ...op,
      maxFeePerGas: toHexQuantity(fees.maxFeePerGas),
      maxPriorityFeePerGas: toHexQuantity(fees.maxPriorityFeePerGas),
    },
  })
  note(`maxFeePerGas ${BigInt(fees.maxFeePerGas).toLocaleString('en-US')} wei`)
}
