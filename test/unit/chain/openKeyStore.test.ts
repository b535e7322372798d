import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openKeyStore } from '../../../src/main/service/chain/keys/openKeyStore'
import { StartupError } from '../../../src/main/service/errors'
import type { Logger } from '../../../src/main/service/log/logger'

function recordWarnings(): { log: Logger; warnings: string[] } {
  const warnings: string[] = []
  const ignore = () => {}
  return {
    warnings,
    log: { debug: ignore, info: ignore, error: ignore, warn: (_, msg) => warnings.push(msg ?? '') },
  }
}

describe('openKeyStore', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'opstation-keys-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('generates executor and signer keys on a dev chain, stores them with mode 0600 and reloads them', async () => {
    const path = join(dir, 'chain', 'keys.json')
    const first = await openKeyStore({ path, chainId: 31337, isDev: true })
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    const second = await openKeyStore({ path, chainId: 31337, isDev: true })
    expect(second.executor.address).toBe(first.executor.address)
    expect(second.paymasterSigner.address).toBe(first.paymasterSigner.address)
    expect(second.executor.address).not.toBe(second.paymasterSigner.address)
  })

  it('keeps paymasterId keys per chain id', async () => {
    const path = join(dir, 'keys.json')
    const store = await openKeyStore({ path, chainId: 31337, isDev: true })
    const account = await store.addPaymasterIdKey(generatePrivateKey())
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    const reopened = await openKeyStore({ path, chainId: 31337, isDev: true })
    expect(reopened.getPaymasterIdAccount(account.address)?.address).toBe(account.address)
    const other = await openKeyStore({ path, chainId: 1337, isDev: true })
    expect(other.getPaymasterIdAccount(account.address)).toBeUndefined()
  })

  it('never generates keys on a non-dev chain and names the config that is needed', async () => {
    const path = join(dir, 'keys.json')
    const err = await openKeyStore({ path, chainId: 11155111, isDev: false }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StartupError)
    expect((err as StartupError).message).toMatch(/executorPrivateKey and paymasterSignerPrivateKey/)
    const onlySigner = await openKeyStore({
      path,
      chainId: 11155111,
      isDev: false,
      executorPrivateKey: generatePrivateKey(),
    }).catch((e: unknown) => e)
    expect((onlySigner as StartupError).message).toMatch(/Set paymasterSignerPrivateKey in the config/)
  })

  it('uses configured keys without writing them to the key file', async () => {
    const path = join(dir, 'keys.json')
    const executorPrivateKey = generatePrivateKey()
    const paymasterSignerPrivateKey = generatePrivateKey()
    const store = await openKeyStore({
      path,
      chainId: 10,
      isDev: false,
      executorPrivateKey,
      paymasterSignerPrivateKey,
    })
    expect(store.executor.address).toBe(privateKeyToAccount(executorPrivateKey).address)
    const text = await readFile(path, 'utf8').catch(() => '')
    expect(text).not.toContain(executorPrivateKey.slice(2))
    expect(text).not.toContain(paymasterSignerPrivateKey.slice(2))
  })

  it('keeps the key file it replaces as keys.json.previous (mode 0600)', async () => {
    const path = join(dir, 'keys.json')
    const store = await openKeyStore({ path, chainId: 31337, isDev: true })
    const before = await readFile(path, 'utf8')
    const account = await store.addPaymasterIdKey(generatePrivateKey())
    expect(await readFile(`${path}.previous`, 'utf8')).toBe(before)
    expect((await stat(`${path}.previous`)).mode & 0o777).toBe(0o600)
    expect(await readFile(path, 'utf8')).toContain(account.address)
  })

  it.each([
    ['empty', ''],
    ['cut short', '{"version":1,"chains":{"31337":{"exec'],
    ['missing', undefined],
  ])(
    'loads the previous copy when keys.json is %s, says so in the log and writes keys.json back',
    async (problem, text) => {
      const path = join(dir, 'keys.json')
      const store = await openKeyStore({ path, chainId: 31337, isDev: true })
      const account = await store.addPaymasterIdKey(generatePrivateKey())
      // The previous copy holds the keys before the paymasterId was added; the current file is then damaged.
      const kept = await readFile(`${path}.previous`, 'utf8')
      if (text === undefined) await rm(path)
      else await writeFile(path, text)

      const { log, warnings } = recordWarnings()
      const reopened = await openKeyStore({ path, chainId: 31337, isDev: true, log })
      expect(reopened.executor.address).toBe(store.executor.address)
      expect(reopened.paymasterSigner.address).toBe(store.paymasterSigner.address)
      expect(reopened.getPaymasterIdAccount(account.address)).toBeUndefined()
      expect(warnings).toEqual([
        expect.stringMatching(
          new RegExp(
            `keys\\.json is ${problem === 'cut short' ? 'not a complete file' : problem}.*loaded from its previous copy`,
          ),
        ),
      ])
      // Written back from the copy, which stays as it was (the damaged file never becomes the kept copy).
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(JSON.parse(kept))
      expect(await readFile(`${path}.previous`, 'utf8')).toBe(kept)
    },
  )

  it('refuses to start, naming both files, when keys.json and its previous copy are both damaged', async () => {
    const path = join(dir, 'keys.json')
    await writeFile(path, '')
    await writeFile(`${path}.previous`, '{"version":1,')
    const err = await openKeyStore({ path, chainId: 31337, isDev: true }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StartupError)
    expect((err as StartupError).message).toMatch(
      /keys\.json is empty and .*keys\.json\.previous is not a complete file/,
    )
  })
})
