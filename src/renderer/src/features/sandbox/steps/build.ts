import { consoleApi } from '../../../api/console'
import { approveCall } from '../userOperationFields'
import { chainQuery, logConsoleCall, type StepFunction } from './stepContext'

/** The service builds the operation for the account's calls (ERC20 mode first approves the token paymaster). */
export const buildOperation: StepFunction = async ({ run, log, update, note }) => {
  const { config } = run
  const calls =
    config.mode === 'ERC20' && config.feeToken && config.tokenPaymaster
      ? [approveCall(config.feeToken, config.tokenPaymaster), ...config.calls]
      : config.calls
  const body = { calls }
  const url = `/console/api/sandbox/accounts/${config.account.address}/user-operation${chainQuery(config)}`
  const built = await logConsoleCall(log, { label: 'build', url, request: body }, () =>
    consoleApi.sandbox.buildUserOperation(config.account.address, body, config.chainId),
  )
  update({ op: built.userOperation, entryPoint: built.entryPoint })
  note(
    built.deployed
      ? 'account deployed'
      : config.account.type === 'SIMPLE_7702_V08' || config.account.type === 'SIMPLE_7702_V09'
        ? 'first operation: carries the EIP-7702 authorization (0x7702 factory, eip7702Auth)'
        : built.userOperation.initCode !== undefined
          ? 'first operation: deploys the account (initCode)'
          : 'first operation: deploys the account (factory, factoryData)',
  )
}
