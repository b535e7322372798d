import { consoleApi } from '../../../api/console'
import { rpcRequest } from '../../../api/rpc'
import type { Run, RunConfig } from '../run'
import { isSponsored, withGasFields } from '../userOperationFields'
import { requireOperation, rpcExchange, type StepFunction } from './stepContext'

/** The paymaster context the Biconomy SDK sends for the mode. */
function sponsorContext(config: RunConfig, entryPoint: string | null): Record<string, unknown> {
  if (config.mode === 'ERC20')
    return {
      mode: 'ERC20',
      calculateGasLimits: true,
      expiryDuration: 300,
      entryPoint,
      tokenInfo: { feeTokenAddress: config.feeToken },
    }
  return {
    mode: 'SPONSORED',
    calculateGasLimits: true,
    expiryDuration: 300,
    entryPoint,
    sponsorshipInfo: {
      webhookData: config.webhookData,
      // What Biconomy's SDK sends for its Smart Account v2; other accounts have no such name.
      ...(config.account.type === 'SMART_ACCOUNT_V2'
        ? { smartAccountInfo: { name: 'BICONOMY', version: '2.0.0' } }
        : {}),
    },
  }
}

/** Why the paymaster declined: its latest decision for the account (nothing when the log cannot be read). */
async function findDecision(apiKey: string, sender: string): Promise<NonNullable<Run['declined']>> {
  try {
    const latest = (await consoleApi.listSponsorshipDecisions({ apiKey, sender, limit: 1 })).items[0]
    return { reason: latest?.reason ?? null, decisionId: latest?.id ?? null }
  } catch {
    return { reason: null, decisionId: null }
  }
}

/** The paymaster signs the operation (its data and gas limits go in), or declines and the step says why. */
export const sponsorOperation: StepFunction = async ({ run, log, update, note }) => {
  const { config } = run
  const op = requireOperation(run)
  const result = await rpcRequest<Record<string, string | number>>(
    config.paymasterUrl,
    'pm_sponsorUserOperation',
    [op, sponsorContext(config, run.entryPoint)],
    (e) => log(rpcExchange(e)),
  )
  // v0.6 answers paymasterAndData ("0x" when not sponsored); v0.7/v0.8 the ERC-7769 paymaster fields.
  const { mode: _mode, MODE: _MODE, ...fields } = result
  update({ op: withGasFields(op, fields) })
  if (!isSponsored(fields)) {
    const declined = await findDecision(config.apiKey, config.account.address)
    update({ declined })
    throw new Error(`Not sponsored${declined.reason ? `: ${declined.reason}` : ' (no paymaster data)'}`)
  }
  note(config.mode === 'ERC20' ? 'token paymaster signed' : 'sponsored')
}
