import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Address, Hex, LocalAccount } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { StartupError } from '../../errors'
import { type Logger, silentLogger } from '../../log/logger'
import { readFileOrPrevious } from '../../util/files/readFileOrPrevious'
import { previousCopyPath, writeFileAtomic } from '../../util/files/writeFileAtomic'
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
  log?: Logger
}

function parseKeyFile(text: string): KeyFile {
  const parsed = JSON.parse(text) as KeyFile
  if (parsed?.version !== 1 || typeof parsed.chains !== 'object' || parsed.chains === null) {
    throw new Error('unknown format')
  }
  return parsed
}

/**
 * The key file, or its previous copy when the file itself is missing, empty or damaged (a power cut under an earlier
 * version, which did not fsync); `fromPrevious` then says why. No file at all is an empty one (a first start).
 */
async function readKeyFile(path: string): Promise<{ file: KeyFile; fromPrevious?: string }> {
  const read = await readFileOrPrevious(path, parseKeyFile)
  switch (read.from) {
    case 'file':
      return { file: read.value }
    case 'previous':
      return { file: read.value, fromPrevious: read.reason }
    case 'none':
      return { file: { version: 1, chains: {} } }
    case 'unreadable':
      throw new StartupError(`Key file ${path} is unreadable, and so is its previous copy: ${read.reason}`)
  }
}

/**
 * Loads (or creates) the chain keys. Keys from config win; on a dev chain missing keys are generated and stored;
 * on any other chain missing keys are a StartupError naming the config needed. Every save keeps the file it replaces
 * as `keys.json.previous` (written and on the disk before the new file replaces the old), and a key file found
 * missing, empty or damaged is loaded from that copy and written again from it.
 */
export async function openKeyStore(p: OpenKeyStoreParameters): Promise<KeyStore> {
  await mkdir(dirname(p.path), { recursive: true, mode: 0o700 })
  const { file, fromPrevious } = await readKeyFile(p.path)
  const log = p.log ?? silentLogger
  if (fromPrevious) {
    log.warn(
      { keyFile: p.path, previousCopy: previousCopyPath(p.path) },
      `${fromPrevious}: the keys were loaded from its previous copy, which is written back to it`,
    )
  }
  const entry = file.chains[String(p.chainId)] ?? {}
  file.chains[String(p.chainId)] = entry
  let dirty = fromPrevious !== undefined
  // A damaged key file is never kept as the previous copy: the first save writes the file back from the copy.
  let keepPrevious = fromPrevious === undefined

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
      await writeFileAtomic(p.path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, keepPrevious })
      keepPrevious = true
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
