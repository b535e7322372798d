import type { StepId } from '../run'
import { buildOperation } from './build'
import { estimateGas } from './estimate'
import { readGasFees } from './fees'
import { quoteTokenFee } from './quote'
import { readReceipt } from './receipt'
import { sendOperation } from './send'
import { signOperation } from './sign'
import { sponsorOperation } from './sponsor'
import type { StepFunction } from './stepContext'

/** Each step of a sandbox run, as a plain async function of the run. */
export const STEP_FUNCTIONS: Record<StepId, StepFunction> = {
  build: buildOperation,
  fees: readGasFees,
  estimate: estimateGas,
  quote: quoteTokenFee,
  sponsor: sponsorOperation,
  sign: signOperation,
  send: sendOperation,
  receipt: readReceipt,
}
