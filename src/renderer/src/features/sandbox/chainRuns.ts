import type { ServiceInfo } from '../../../../shared/serviceInfo'
import { chainUrlsOf, paymasterUrlOf } from '../chains/chainList'
import type { Run, RunConfig } from './run'

/** What a run sends, whatever its chain: the account, who pays and the calls. */
export type RunRequest = Omit<RunConfig, 'chainId' | 'apiKey' | 'paymasterUrl' | 'bundlerUrl'>

type Urls = Pick<ServiceInfo, 'chains' | 'chainId' | 'bundlerUrl' | 'paymasterUrlTemplate' | 'rpcUrl'>

/**
 * The run of a request on a chain: that chain's bundler URL and the paymaster URL of the dApp (a dApp of that chain).
 * `chainId` undefined: the service's first chain, with none named to the service (one chain, as always).
 */
export function runConfigOn(
  status: Urls,
  chainId: number | undefined,
  dapp: { apiKey: string; chainId: number } | null | undefined,
  request: RunRequest,
): RunConfig {
  const apiKey = dapp?.apiKey ?? ''
  return {
    ...(chainId === undefined ? {} : { chainId }),
    ...request,
    apiKey,
    paymasterUrl: paymasterUrlOf(status, { apiKey, chainId: dapp?.chainId ?? chainId ?? status.chainId }),
    bundlerUrl: chainUrlsOf(status, chainId).bundlerUrl,
  }
}

/** How a run on one chain of several ended, as the Sandbox lists it after "Send on every chain". */
export type ChainRunOutcome = {
  chainId: number
  /** mined | the step that failed | the reason it did not start */
  outcome: string
  ok: boolean
  userOpHash: string | null
}

/** A finished run's outcome on its chain: mined, or the step that failed and why. */
export function describeChainRun(chainId: number, run: Run | null): ChainRunOutcome {
  const failed = run?.steps.find((s) => s.status === 'failed')
  const mined = run?.steps.every((s) => s.status === 'done') ?? false
  return {
    chainId,
    ok: mined,
    outcome: mined
      ? 'mined'
      : failed
        ? `${failed.title} failed${failed.error ? `: ${failed.error}` : ''}`
        : 'not finished',
    userOpHash: run?.userOpHash ?? null,
  }
}
