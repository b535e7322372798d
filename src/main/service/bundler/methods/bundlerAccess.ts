import type { Bundler } from '../createBundler'

/** The bundler once the chain is up; throws a ChainError (HTTP 503) while it is not. */
export type GetBundler = () => Bundler
