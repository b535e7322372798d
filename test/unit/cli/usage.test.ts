import { afterEach, describe, expect, it, vi } from 'vitest'
import { runCli } from '../../../src/main/cli'

async function readHelp(): Promise<string> {
  let text = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    text += String(chunk)
    return true
  })
  expect(await runCli(['serve', '--help'])).toBe(0)
  return text
}

describe('opstation serve --help', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('lists -h and -v among the options, and only variables under Environment', async () => {
    const help = await readHelp()
    const [options, environment] = help.split('\nEnvironment:\n')
    expect(options).toMatch(/^\s+-h, --help\s/m)
    expect(options).toMatch(/^\s+-v, --version\s/m)
    const variables = environment!.split('\n\n')[0]!.split('\n')
    expect(variables.filter((line) => !/^ {2}(OPSTATION_\w+|\s{20,})/.test(line))).toEqual([])
  })
})
