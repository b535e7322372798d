import { readFileSync } from 'node:fs'
import path from 'node:path'

const repoRoot = path.resolve(import.meta.dirname, '..', '..')

export type ReadmeCodeBlock = {
  /** The fence's language (`ts`, `sh`, ...; '' for none). */
  lang: string
  /** The file a runnable snippet names in its first line (`// pool.mjs`, `# session.sh`); undefined otherwise. */
  file: string | undefined
  code: string
  /** The `##` section it is in. */
  section: string
  /** Its first line in README.md (1-based), for messages. */
  line: number
}

const FILE_NAME = /^(?:\/\/|#) ([\w.-]+\.(?:ts|mts|mjs|js|sh))\n/

/** Every fenced code block of README.md, with the file name a runnable snippet gives itself in its first line. */
export function readReadmeCodeBlocks(readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8')) {
  const blocks: ReadmeCodeBlock[] = []
  let section = ''
  const lines = readme.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.+)$/.exec(lines[i]!)
    if (heading) section = heading[1]!
    const fence = /^```(\w*)\s*$/.exec(lines[i]!)
    if (!fence) continue
    const end = lines.indexOf('```', i + 1)
    if (end === -1) throw new Error(`README.md:${i + 1}: a code block that never ends`)
    const code = `${lines.slice(i + 1, end).join('\n')}\n`
    blocks.push({ lang: fence[1]!, file: FILE_NAME.exec(code)?.[1], code, section, line: i + 1 })
    i = end
  }
  return blocks
}
