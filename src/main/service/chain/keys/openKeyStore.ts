import { chmod, mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Address, Hex, LocalAccount } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { StartupError } from '../../errors'
import { writeFileAtomic } from '../../util/files/writeFileAtomic'
import { toLibsecp256k1Account } from './toLibsecp256k1Account'

/** `<dataDir>/chain/keys.json` (mode 0600). Keys are per chain id, so one data folder can serve several chains. */
export type KeyFile = {
  version: 1
  chains: Record<
    string,
    {
      executor?: Hex
      paymasterSigner?: Hex
      /** paymasterId address → private key (one per gas tank / dApp). */
      paymasterIds?: Record<string, Hex>
    }
  >
}

export type KeyStore = {
  path: string
  executor: LocalAccount
  paymasterSigner: LocalAccount
  getPaymasterIdAccount: (paymasterId: Address) => LocalAccount | undefined
  addPaymasterIdKey: (privateKey: Hex) => Promise<LocalAccount>
}

export type OpenKeyStoreParameters = {
  path: string
  chainId: number
  /** Dev chains may get generated keys; other chains need them from config. */
  isDev: boolean
  executorPrivateKey?: Hex
  paymasterSignerPrivateKey?: Hex
}

async function readKeyFile(path: string): Promise<KeyFile> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as KeyFile
    if (parsed?.version !== 1 || typeof parsed.chains !== 'object') throw new Error('unknown format')
    return parsed
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, chains: {} }
    throw new StartupError(`Key file ${path} is unreadable: ${(err as Error).message}`, { cause: err })
  }
}

/**
 * Loads (or creates) the chain keys. Keys from config win; on a dev chain missing keys are generated and stored;
 * on any other chain missing keys are a StartupError naming the config needed.
 */
export async function openKeyStore(p: OpenKeyStoreParameters): Promise<KeyStore> {
  await mkdir(dirname(p.path), { recursive: true, mode: 0o700 })
  const file = await readKeyFile(p.path)
  const entry = file.chains[String(p.chainId)] ?? {}
  file.chains[String(p.chainId)] = entry
  let dirty = false

  const need: string[] = []
  const pick = (
    configured: Hex | undefined,
    stored: Hex | undefined,
    configName: string,
  ): Hex | undefined => {
    if (configured) return configured
    if (stored) return stored
    if (!p.isDev) {
      need.push(configName)
      return undefined
    }
    dirty = true
    return generatePrivateKey()
  }
  const executorKey = pick(p.executorPrivateKey, entry.executor, 'executorPrivateKey')
  const signerKey = pick(p.paymasterSignerPrivateKey, entry.paymasterSigner, 'paymasterSignerPrivateKey')
  if (!executorKey || !signerKey) {
    throw new StartupError(
      `Chain ${p.chainId} is not a dev chain: keys are never generated for it. Set ${need.join(' and ')} in the config.`,
      { data: { missingConfig: need } },
    )
  }
  // Only generated keys are stored; configured keys stay in the config.
  if (!p.executorPrivateKey && entry.executor !== executorKey) entry.executor = executorKey
  if (!p.paymasterSignerPrivateKey && entry.paymasterSigner !== signerKey) entry.paymasterSigner = signerKey

  const paymasterIds = new Map<string, LocalAccount>()
  for (const key of Object.values(entry.paymasterIds ?? {})) {
    const account = toLibsecp256k1Account(key)
    paymasterIds.set(account.address.toLowerCase(), account)
  }

  let writing = Promise.resolve()
  const save = () => {
    writing = writing.then(async () => {
      await writeFileAtomic(p.path, `${JSON.stringify(file, null, 2)}\n`, 0o600)
      await chmod(p.path, 0o600)
    })
    return writing
  }
  if (dirty) await save()

  return {
    path: p.path,
    executor: toLibsecp256k1Account(executorKey),
    paymasterSigner: toLibsecp256k1Account(signerKey),
    getPaymasterIdAccount: (paymasterId) => paymasterIds.get(paymasterId.toLowerCase()),
    addPaymasterIdKey: async (privateKey) => {
      const account = toLibsecp256k1Account(privateKey)
      entry.paymasterIds = { ...(entry.paymasterIds ?? {}), [account.address]: privateKey }
      paymasterIds.set(account.address.toLowerCase(), account)
      await save()
      return account
    },
  }
}
