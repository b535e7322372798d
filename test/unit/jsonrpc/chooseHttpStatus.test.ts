import { describe, expect, it } from 'vitest'
import { chooseHttpStatus } from '../../../src/main/service/jsonrpc/chooseHttpStatus'

describe('chooseHttpStatus', () => {
  it("keeps an error's status for a client that asks for application/json (Biconomy's SDK)", () => {
    expect(chooseHttpStatus(400, 'application/json')).toBe(400)
    expect(chooseHttpStatus(401, 'Application/JSON; charset=utf-8')).toBe(401)
    expect(chooseHttpStatus(500, 'text/plain, application/json')).toBe(500)
  })

  it('answers an error with 200 to every other client (ethers v5 reads no body from a non-2xx answer)', () => {
    expect(chooseHttpStatus(400, undefined)).toBe(200)
    expect(chooseHttpStatus(400, '')).toBe(200)
    expect(chooseHttpStatus(400, '*/*')).toBe(200)
    expect(chooseHttpStatus(413, 'application/json, */*')).toBe(200)
    expect(chooseHttpStatus(400, 'text/html')).toBe(200)
  })

  it('leaves successful statuses alone', () => {
    expect(chooseHttpStatus(200, undefined)).toBe(200)
    expect(chooseHttpStatus(204, 'application/json')).toBe(204)
  })
})
