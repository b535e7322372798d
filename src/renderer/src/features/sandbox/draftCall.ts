import { type AbiFunction, encodeFunctionData } from 'viem'
import type { SmartContractView } from '../../../../shared/api/smartContracts'
import type { SandboxCall } from '../../../../shared/sandbox'
import { parseArgument } from '../../lib/abi'
import { parseUnits } from '../../lib/format'

/** What the call is, or why there is none yet (`error`, its first problem). */
export type CallDraft = { call: SandboxCall | null; error: string | null; summary: string }

/** A problem of one field of the call form (`value`, `to`, `data`, `contract`, `arg-<i>`, `args`). */
export type CallProblem = { field: string; message: string }

/** What the call form holds: raw callData, or a method of a registered contract with its argument texts. */
export type CallForm = {
  source: 'contract' | 'raw'
  /** The sandbox account: the default `to` and address arguments. */
  account: string | null
  /** The value in ETH, as typed. */
  valueEth: string
  to: string
  rawData: string
  contract: SmartContractView | undefined
  fn: AbiFunction | undefined
  /** Argument texts the user typed, by index; the others take their default. */
  args: Record<string, string>
}

const firstLine = (err: unknown) => (err as Error).message.split('\n')[0] || 'invalid call'

/** An argument's text: what the user typed, else the account itself for an address. */
export const argumentText = (
  typed: Record<string, string>,
  account: string | null,
  key: string,
  type: string,
) => typed[key] ?? (type === 'address' ? (account ?? '') : '')

/** The call the form describes, with every problem of its fields (the draft's error is the first). */
export function draftCall(form: CallForm): { draft: CallDraft; problems: CallProblem[] } {
  const { source, account, contract, fn } = form
  const problems: CallProblem[] = []
  let value = '0'
  try {
    value = parseUnits(form.valueEth || '0', 18).toString()
  } catch (err) {
    problems.push({ field: 'value', message: `Value: ${firstLine(err)}` })
  }
  let call: SandboxCall | null = null
  let summary = ''
  const to = form.to.trim()
  if (source === 'raw') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(to))
      problems.push({ field: 'to', message: 'to: enter an address (0x + 40 hex digits)' })
    if (!/^0x([0-9a-fA-F]{2})*$/.test(form.rawData.trim()))
      problems.push({ field: 'data', message: 'callData: enter 0x-prefixed hex bytes' })
    if (!problems.length) {
      call = { to, value, data: form.rawData.trim() }
      const self = account && to.toLowerCase() === account.toLowerCase()
      summary = `raw call to ${to}${self ? ' (the account itself)' : ''}`
    }
  } else if (!contract || !fn) {
    problems.push({
      field: 'contract',
      message: 'Pick a registered contract and method (or use raw callData).',
    })
  } else {
    const values = fn.inputs.map((input, i) => {
      try {
        return parseArgument(input, argumentText(form.args, account, String(i), input.type))
      } catch (err) {
        problems.push({ field: `arg-${i}`, message: firstLine(err) })
        return undefined
      }
    })
    if (!problems.length) {
      try {
        const data = encodeFunctionData({ abi: [fn], functionName: fn.name, args: values })
        const whitelisted = contract.whitelistedMethods.includes(fn.name)
        call = { to: contract.address, value, data }
        summary = `${contract.name}.${fn.name}(…) · ${whitelisted ? 'whitelisted' : 'NOT whitelisted'}`
      } catch (err) {
        problems.push({ field: 'args', message: firstLine(err) })
      }
    }
  }
  return { draft: { call, error: problems[0]?.message ?? null, summary }, problems }
}
