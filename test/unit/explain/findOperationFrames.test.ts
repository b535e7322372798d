import type { Address, Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { TraceLayout } from '../../../src/main/service/entryPoint/types'
import {
  describeMissingFrames,
  findOperationFrames,
} from '../../../src/main/service/explain/findOperationFrames'
import type { TracedFrame } from '../../../src/main/service/explain/types'

const layout: TraceLayout = {
  createSender: '0x570e1a36',
  validateUserOp: '0x19822f7c',
  validatePaymasterUserOp: '0x52b7512c',
  innerHandleOp: '0x0042dc53',
  postOp: '0x7c627b21',
}
const entryPoint: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
const sender: Address = '0x08401A9a3ce9a698429E11a5f4803247651B9991'
const userOpHash: Hex = `0x${'7b'.repeat(32)}`
const other: Hex = `0x${'c4'.repeat(32)}`

const frame = (to: Address, input: Hex, calls: TracedFrame[] = []): TracedFrame =>
  ({ type: 'CALL', from: entryPoint, to, input, gas: '0x1', gasUsed: '0x1', calls }) as TracedFrame

/** A handleOps of one operation whose userOpHash is `hash`: its validation, then its innerHandleOp and execution. */
const handleOpsOf = (hash: Hex): TracedFrame =>
  frame(entryPoint, '0x765e827f', [
    frame(sender, `${layout.validateUserOp}${hash.slice(2)}`),
    frame(entryPoint, `${layout.innerHandleOp}${hash.slice(2)}`, [
      { ...frame(sender, '0xb61d27f6'), from: entryPoint },
    ]),
  ])

describe("an operation's frames in a handleOps trace", () => {
  it('finds the validation, the innerHandleOp and the execution of the operation the calldata names', () => {
    const frames = findOperationFrames({
      handleOps: handleOpsOf(userOpHash),
      layout,
      sender,
      paymaster: null,
      userOpHash,
    })
    expect(Object.keys(frames).sort()).toEqual(['account-validation', 'execution', 'inner'])
    expect(describeMissingFrames(handleOpsOf(userOpHash), frames)).toBeNull()
  })

  it("says so when a handleOps that did not revert holds none of the operation's calls (a trace of another): missing, not none", () => {
    for (const handleOps of [handleOpsOf(other), frame(entryPoint, '0x765e827f')]) {
      const frames = findOperationFrames({ handleOps, layout, sender, paymaster: null, userOpHash })
      expect(frames).toEqual({})
      expect(describeMissingFrames(handleOps, frames)).toBe(
        "the call trace holds none of this operation's calls (no innerHandleOp with its userOpHash under the " +
          `call to ${entryPoint}): its phases, events and balance changes could not be read from it, and are ` +
          'missing rather than none',
      )
    }
  })

  it('says nothing more of a handleOps that reverted: its reason tells why no operation ran', () => {
    const handleOps: TracedFrame = {
      ...frame(entryPoint, '0x765e827f'),
      error: 'execution reverted',
      output: '0x',
    }
    const frames = findOperationFrames({ handleOps, layout, sender, paymaster: null, userOpHash })
    expect(describeMissingFrames(handleOps, frames)).toBeNull()
  })
})
