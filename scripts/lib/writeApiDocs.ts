import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createService } from '../../src/main/service/createService'

/** The files writeApiDocs writes, as the service serves them under /docs/. */
const DOCUMENTS = [
  { url: '/docs/openapi.json', file: 'openapi.json' },
  { url: '/docs/openrpc.json', file: 'openrpc.json' },
  { url: '/docs/', file: 'index.html' },
] as const

/**
 * Writes `openapi.json`, `openrpc.json` and `index.html` (the reference page, which links the other two by relative
 * URLs) into `outDir`, as a service serves them: one is started for it, without a chain, on a free port and a
 * temporary data folder, then stopped. Without a chain the paymaster URL lacks the gas-price methods it serves
 * beside a running bundler (pimlico_ and zd_getUserOperationGasPrice, documented at the bundler URL). Returns the
 * paths written.
 */
export async function writeApiDocs(outDir: string): Promise<string[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-docs-'))
  const contents: { file: string; text: string }[] = []
  try {
    const service = await createService({ noChain: true, port: 0, dataDir, logLevel: 'silent' })
    try {
      for (const { url, file } of DOCUMENTS) {
        const res = await service.app.inject({ url })
        if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`)
        const text = file.endsWith('.json') ? `${JSON.stringify(res.json(), null, 2)}\n` : res.body
        contents.push({ file, text })
      }
    } finally {
      await service.close()
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
  await mkdir(outDir, { recursive: true })
  const written: string[] = []
  for (const { file, text } of contents) {
    const target = path.join(outDir, file)
    await writeFile(target, text)
    written.push(target)
  }
  return written
}
