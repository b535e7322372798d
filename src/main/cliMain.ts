import { runCli } from './cli'

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`opstation: error: ${(err as Error).message}\n`)
    process.exit(1)
  },
)
