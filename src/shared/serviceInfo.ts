/** What the service says about itself: the ready line, `/console/api/status` and the console's overview. */
export type ServiceInfo = {
  version: string
  dashboardUrl: string
  bundlerUrl: string
  /** Paymaster URL with `{apiKey}` where the dApp's apiKey goes. */
  paymasterUrlTemplate: string
  consoleUrl: string
  chainId: number
  /** The chain's own JSON-RPC URL (for wallets, viem, cast), when a chain runs. */
  rpcUrl: string | null
  dataDir: string
  chain: ChainStatus
}

export type ChainStatus = {
  kind: 'embedded' | 'external' | 'none'
  state: 'starting' | 'ready' | 'restarting' | 'down' | 'none'
  addresses: Record<string, unknown> | null
  missing: string[]
  message?: string
}
