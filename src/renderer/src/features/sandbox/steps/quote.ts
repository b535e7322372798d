import { rpcRequest } from '../../../api/rpc'
import { requireOperation, rpcExchange, type StepFunction } from './stepContext'

type FeeQuotes = { feeQuotes?: { symbol: string; maxGasFee: number; tokenAddress: string }[] }

/** ERC20 mode: the token paymaster's quote of the fee in the chosen token. */
export const quoteTokenFee: StepFunction = async ({ run, log, note }) => {
  const { config } = run
  const op = requireOperation(run)
  const quote = await rpcRequest<FeeQuotes>(
    config.paymasterUrl,
    'pm_getFeeQuoteOrData',
    [
      op,
      {
        mode: 'ERC20',
        calculateGasLimits: true,
        entryPoint: run.entryPoint,
        tokenInfo: {
          tokenList: config.feeToken ? [config.feeToken] : [],
          preferredToken: config.feeToken ?? undefined,
        },
      },
    ],
    (e) => log(rpcExchange(e)),
  )
  const q =
    quote.feeQuotes?.find((f) => f.tokenAddress.toLowerCase() === config.feeToken?.toLowerCase()) ??
    quote.feeQuotes?.[0]
  note(q ? `at most ${q.maxGasFee} ${q.symbol}` : 'no quote for this token')
}
