import { describe, expect, it } from 'vitest'
import {
  checkPolicies,
  isSameAbi,
  isSameDecimal,
  planBalanceChange,
  planContractChange,
  planPoliciesChange,
  planTokenPriceChange,
  planWebhookChange,
} from '../../../src/main/service/setup/planChanges'
import { parseSetup } from '../../../src/main/service/setup/readSetup'
import type { DappPolicies } from '../../../src/shared/api/dapps'
import type { SmartContract } from '../../../src/shared/api/smartContracts'
import type { Webhook } from '../../../src/shared/api/webhooks'

const ABI = [
  { type: 'function', name: 'increment', inputs: [], outputs: [], stateMutability: 'nonpayable' },
  { type: 'function', name: 'reset', inputs: [], outputs: [], stateMutability: 'nonpayable' },
]
const ADDRESS = '0x1111111111111111111111111111111111111111'
const stored: SmartContract = {
  id: 'c1',
  dappId: 'd1',
  name: 'Counter',
  address: ADDRESS,
  // Stored as the dashboard API got it: spacing of its own.
  abi: JSON.stringify(ABI, null, 4),
  whitelistedMethods: ['increment', 'reset'],
  methods: ['increment', 'reset'],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
}
const webhook: Webhook = {
  webhookId: 'w1',
  dappId: 'd1',
  webhookUrl: 'http://127.0.0.1:9/sponsor',
  requestType: 'POST',
  active: true,
  createdAt: '2025-01-01T00:00:00.000Z',
}
const limit = {
  type: 'SMART_ACCOUNT',
  thresholdType: 'COUNT',
  threshold: '5',
  cycleDuration: { value: 1, unit: 'day' },
}
const policies: DappPolicies = {
  limits: [{ ...limit, id: 'l1', active: true } as DappPolicies['limits'][number]],
  validAfter: null,
  validUntil: null,
  blockWindow: null,
  premiumPercentage: 10,
}

/** The dApp entry of a setup file, read as the schema reads it. */
function readDapp(dapp: Record<string, unknown>) {
  const setup = parseSetup({ version: 1, dapps: [{ name: 'shop', ...dapp }] })
  return setup.dapps[0]!
}
const contractOf = (contract: Record<string, unknown>) =>
  readDapp({ contracts: [{ name: 'Counter', address: ADDRESS, abi: ABI, ...contract }] }).contracts![0]!
const webhookOf = (fields: Record<string, unknown>) =>
  readDapp({ webhooks: [{ webhookUrl: webhook.webhookUrl, ...fields }] }).webhooks![0]!
const policiesOf = (fields: Record<string, unknown>) => readDapp({ policies: fields }).policies!
const noNewIds = () => {
  throw new Error('no new id expected')
}

describe('planning a setup: what has to change', () => {
  it('a contract equal to the stored one (same ABI written differently, same methods in another order) needs nothing', () => {
    expect(planContractChange(stored, contractOf({ whitelistedMethods: ['reset', 'increment'] }))).toBeNull()
    expect(planContractChange(stored, contractOf({}))).toBeNull()
  })

  it('a new contract is created; changed methods are set; a new name or ABI registers it again, keeping methods still in the ABI', () => {
    expect(planContractChange(undefined, contractOf({}))).toEqual({ kind: 'create', whitelistedMethods: [] })
    expect(planContractChange(stored, contractOf({ whitelistedMethods: ['increment'] }))).toEqual({
      kind: 'whitelist',
      whitelistedMethods: ['increment'],
    })
    expect(planContractChange(stored, contractOf({ name: 'Counter2' }))).toEqual({
      kind: 'replace',
      whitelistedMethods: ['increment', 'reset'],
    })
    expect(planContractChange(stored, contractOf({ abi: [ABI[0]] }))).toEqual({
      kind: 'replace',
      whitelistedMethods: ['increment'],
    })
  })

  it('a webhook: created with POST and active by default, its status set, registered again for another request type', () => {
    expect(planWebhookChange(undefined, webhookOf({}))).toEqual({
      kind: 'create',
      requestType: 'POST',
      active: true,
    })
    expect(planWebhookChange(webhook, webhookOf({}))).toBeNull()
    expect(planWebhookChange(webhook, webhookOf({ requestType: 'POST', active: true }))).toBeNull()
    expect(planWebhookChange(webhook, webhookOf({ active: false }))).toEqual({
      kind: 'active',
      active: false,
    })
    expect(planWebhookChange(webhook, webhookOf({ requestType: 'GET' }))).toEqual({
      kind: 'replace',
      requestType: 'GET',
      active: true,
    })
  })

  it('policies: fields left out are kept; equal limits without ids keep their ids, so nothing changes', () => {
    expect(planPoliciesChange(policies, policiesOf({}), noNewIds)).toBeNull()
    expect(
      planPoliciesChange(policies, policiesOf({ limits: [limit], premiumPercentage: 10 }), noNewIds),
    ).toBeNull()
    expect(planPoliciesChange(policies, policiesOf({ premiumPercentage: 5 }), noNewIds)).toEqual({
      ...policies,
      premiumPercentage: 5,
    })
    expect(
      planPoliciesChange(policies, policiesOf({ limits: [{ ...limit, threshold: '6' }] }), () => 'l2'),
    ).toEqual({ ...policies, limits: [{ ...limit, threshold: '6', active: true, id: 'l2' }] })
    expect(planPoliciesChange(policies, policiesOf({ limits: [] }), noNewIds)).toEqual({
      ...policies,
      limits: [],
    })
  })

  it('policies: a block window is set, kept when left out or equal, and cleared with null', () => {
    const blockWindow = { validForBlocks: 12, validAfterBlock: null, validUntilBlock: 500 }
    const withBlocks = planPoliciesChange(policies, policiesOf({ blockWindow }), noNewIds)
    expect(withBlocks).toEqual({ ...policies, blockWindow })
    const stored = { ...policies, blockWindow }
    expect(planPoliciesChange(stored, policiesOf({}), noNewIds)).toBeNull()
    expect(planPoliciesChange(stored, policiesOf({ blockWindow: { ...blockWindow } }), noNewIds)).toBeNull()
    expect(planPoliciesChange(stored, policiesOf({ blockWindow: null }), noNewIds)).toEqual(policies)
  })

  it('policies: a window the file completes with the stored value is checked as a whole', () => {
    const next = planPoliciesChange(
      { ...policies, validUntil: 100 },
      policiesOf({ validAfter: 200 }),
      noNewIds,
    )
    expect(next && checkPolicies(next)).toBe('validAfter (200) must be before validUntil (100)')
    expect(checkPolicies(policies)).toBeNull()
  })

  it('a balance is brought to the target by the difference, in either direction; an equal one needs nothing', () => {
    expect(planBalanceChange(10n, 10n)).toBeNull()
    expect(planBalanceChange(3n, 10n)).toEqual({ action: 'deposit', wei: 7n })
    expect(planBalanceChange(10n, 4n)).toEqual({ action: 'withdraw', wei: 6n })
  })

  it('a token price is written only when it differs as a number or the file gives another logo', () => {
    const current = {
      tokenAddress: ADDRESS,
      usdPrice: '2000.50',
      logoUrl: null,
      updatedAt: '2025-01-01T00:00:00.000Z',
    }
    const price = (fields: Record<string, unknown>) =>
      parseSetup({ version: 1, tokenPrices: [{ tokenAddress: ADDRESS, ...fields }] }).tokenPrices[0]!
    expect(planTokenPriceChange(current, price({ usdPrice: 2000.5 }))).toBe(false)
    expect(planTokenPriceChange(current, price({ usdPrice: '2000.5', logoUrl: null }))).toBe(false)
    expect(planTokenPriceChange(current, price({ usdPrice: '2001' }))).toBe(true)
    expect(planTokenPriceChange(current, price({ usdPrice: '2000.5', logoUrl: 'https://x/logo.png' }))).toBe(
      true,
    )
    expect(planTokenPriceChange(undefined, price({ usdPrice: '1' }))).toBe(true)
  })

  it('compares ABIs as JSON and prices as numbers', () => {
    expect(isSameAbi('[{"b":1,"a":[2]}]', '[ { "a": [2], "b": 1 } ]')).toBe(true)
    expect(isSameAbi('[{"a":1}]', '[{"a":2}]')).toBe(false)
    expect(isSameDecimal('007.500', '7.5')).toBe(true)
    expect(isSameDecimal('10', '10.0')).toBe(true)
    expect(isSameDecimal('1', '0.1')).toBe(false)
  })
})
