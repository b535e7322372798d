import type { RunConfig } from '../../../../src/renderer/src/features/sandbox/run'

/** A sandbox run's configuration: a SimpleAccount v0.7 (not deployed) on the given mode; `change` overrides. */
export const runConfig = (mode: RunConfig['mode'], change: Partial<RunConfig> = {}): RunConfig => ({
  account: {
    address: '0x1111111111111111111111111111111111111111',
    label: 'one',
    type: 'SIMPLE_ACCOUNT_V07',
    entryPointVersion: '0.7',
    owner: '0x2222222222222222222222222222222222222222',
    index: 0,
    deployed: false,
    balanceWei: '0',
    tokens: [],
    createdAt: '2026-01-02T03:04:05.000Z',
  },
  apiKey: 'key.1',
  paymasterUrl: 'http://paymaster',
  bundlerUrl: 'http://bundler',
  mode,
  feeToken: null,
  tokenPaymaster: null,
  calls: [],
  webhookData: {},
  ...change,
})
