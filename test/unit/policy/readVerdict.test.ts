import { describe, expect, it } from 'vitest'
import { readVerdict } from '../../../src/main/service/webhook/callWebhook'

describe('webhook verdict', () => {
  it('accepts both spellings, but only the boolean true', () => {
    expect(readVerdict({ arePoliciesVerified: true })).toEqual({
      verified: true,
      field: 'arePoliciesVerified',
      error: null,
    })
    expect(readVerdict({ arePoliciesVerifed: true })).toEqual({
      verified: true,
      field: 'arePoliciesVerifed',
      error: null,
    })
    expect(readVerdict({ arePoliciesVerified: 'true' })).toMatchObject({
      verified: false,
      field: 'arePoliciesVerified',
    })
    expect(readVerdict({ arePoliciesVerified: false, arePoliciesVerifed: true })).toMatchObject({
      verified: true,
    })
  })

  it('is not verified when the field is missing or the body is not an object', () => {
    expect(readVerdict({ ok: true })).toEqual({
      verified: false,
      field: null,
      error: 'Webhook response has neither arePoliciesVerified nor arePoliciesVerifed',
    })
    expect(readVerdict([true]).verified).toBe(false)
    expect(readVerdict(null).verified).toBe(false)
  })
})
