import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { createGunzip, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../../src/main/service/util/files/writeFileAtomic'
import { makeTempDir } from '../../helpers/makeTempDir'

describe('writeFileAtomic', () => {
  it('writes a stream (an unzipping one) to the file as it comes', async () => {
    const dir = await makeTempDir('atomic-')
    const file = path.join(dir, 'state.json')
    const unzip = createGunzip()
    unzip.end(gzipSync('{"block":1}'))
    await writeFileAtomic(file, unzip)
    expect(await readFile(file, 'utf8')).toBe('{"block":1}')
    expect(await readdir(dir)).toEqual(['state.json'])
  })

  it('keeps the old file and leaves no temp file when the stream fails', async () => {
    const dir = await makeTempDir('atomic-')
    const file = path.join(dir, 'state.json')
    await writeFile(file, 'old')
    const broken = createGunzip()
    broken.end(Buffer.from('not gzip'))
    await expect(writeFileAtomic(file, broken)).rejects.toThrow()
    const failing = new Readable({
      read() {
        this.destroy(new Error('the source failed'))
      },
    })
    await expect(writeFileAtomic(file, failing)).rejects.toThrow('the source failed')
    expect(await readFile(file, 'utf8')).toBe('old')
    expect(await readdir(dir)).toEqual(['state.json'])
  })
})
