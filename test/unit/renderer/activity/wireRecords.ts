import { type SponsorshipView, SponsorshipViewSchema } from '../../../../src/shared/api/sponsorships'
import { type UserOperationView, UserOperationViewSchema } from '../../../../src/shared/api/userOperations'

const SENDER = '0x1111111111111111111111111111111111111111'
const ENTRY_POINT = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'

/** A hash of 32 bytes ending in `n` (hex). */
export const hashOf = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`

/** A UserOperation as `/console/api/user-operations` answers it (parsed by the service's schema). */
export function userOperationView(change: Partial<UserOperationView> = {}): UserOperationView {
  return UserOperationViewSchema.parse({
    seq: 1,
    userOpHash: hashOf(1),
    chainId: 31337,
    entryPoint: ENTRY_POINT,
    sender: SENDER,
    nonce: '0',
    status: 'included',
    userOperation: null,
    account: 'Safe 1.4.1',
    factory: null,
    paymaster: null,
    dappId: null,
    calls: [],
    gas: {
      callGasLimit: '100000',
      verificationGasLimit: '200000',
      preVerificationGas: '50000',
      maxFeePerGas: '1000000000',
      maxPriorityFeePerGas: '1000000',
    },
    actualGasUsed: '175000',
    actualGasCost: '175000000000000',
    transactionHash: hashOf(2),
    blockNumber: 7,
    blockHash: hashOf(3),
    logRange: [0, 1],
    revertReason: null,
    failure: null,
    receiptFormat: 'standard',
    timeline: [{ status: 'pending', at: '2026-01-02T03:04:05.000Z' }],
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-02T03:04:06.000Z',
    entryPointVersion: '0.7',
    gasLimitTotal: '350000',
    gasUsedPercent: 50,
    ...change,
  })
}

/** A sponsorship decision as `/console/api/sponsorship-decisions` answers it (parsed by the service's schema). */
export function sponsorshipView(change: Partial<SponsorshipView> = {}): SponsorshipView {
  return SponsorshipViewSchema.parse({
    id: 'dec-1',
    dappId: 'dapp-1',
    chainId: 31337,
    time: '2026-01-02T03:04:00.000Z',
    at: '2026-01-02T03:04:00.000Z',
    method: 'pm_sponsorUserOperation',
    mode: 'SPONSORED',
    entryPointVersion: '0.7',
    sender: SENDER,
    nonce: '0',
    userOpHash: hashOf(1),
    sponsored: true,
    steps: [{ step: 'dapp', outcome: 'pass', detail: 'active' }],
    reason: null,
    apiKey: 'key.1',
    dappName: 'Shop',
    ...change,
  })
}
