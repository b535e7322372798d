import type { Dapp } from '../../../shared/api/dapps'
import { UnauthorizedError } from '../errors'

/** The dApp of the paymaster URL's apiKey (the route resolves it; this only narrows the type). */
export function requireDapp(ctx: { dapp: Dapp | undefined }): Dapp {
  if (!ctx.dapp) throw new UnauthorizedError('This method needs a paymaster URL with a dApp apiKey')
  return ctx.dapp
}
