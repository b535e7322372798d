import { useRef, useState } from 'react'
import type { ApplySetupResult } from '../../../shared/api/setup'
import { consoleApi } from '../api/console'
import { errorMessage } from '../api/http'
import { usePaymastersStore } from '../stores/usePaymastersStore'
import { ErrorBanner } from './Feedback'

/** Saves `text` as a file the browser downloads. */
function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/**
 * Export setup (downloads setup.json: `GET /console/api/setup`) and Import setup (a setup file applied with
 * `PUT /console/api/setup`, then what changed, or the server's message naming the field).
 */
export function SetupTransfer() {
  const reloadPaymasters = usePaymastersStore((s) => s.load)
  const fileInput = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState<'export' | 'import' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [result, setResult] = useState<(ApplySetupResult & { fileName: string }) | null>(null)

  async function exportSetup() {
    setBusy('export')
    setError(null)
    setResult(null)
    try {
      const setup = await consoleApi.exportSetup()
      download('setup.json', `${JSON.stringify(setup, null, 2)}\n`)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(null)
    }
  }

  async function importSetup(file: File) {
    setBusy('import')
    setError(null)
    setResult(null)
    try {
      let setup: unknown
      try {
        setup = JSON.parse(await file.text())
      } catch (err) {
        throw new Error(`${file.name} is not valid JSON (${errorMessage(err)})`)
      }
      const applied = await consoleApi.applySetup(setup)
      setResult({ ...applied, fileName: file.name })
      await reloadPaymasters()
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(null)
    }
  }

  return (
    <div data-testid="setup-transfer">
      <div className="inline-actions">
        <button
          type="button"
          className="btn"
          disabled={busy !== null}
          data-testid="setup-export"
          onClick={() => void exportSetup()}
        >
          {busy === 'export' ? 'Exporting…' : 'Export setup'}
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy !== null}
          data-testid="setup-import"
          onClick={() => fileInput.current?.click()}
        >
          {busy === 'import' ? 'Importing…' : 'Import setup'}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="setup-import-file"
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            if (file) void importSetup(file)
          }}
        />
      </div>
      {result ? (
        <div className="banner banner-ok" data-testid="setup-import-result">
          {result.changes.length === 0 ? (
            `${result.fileName}: already applied, nothing changed.`
          ) : (
            <div>
              {`${result.fileName} applied: ${result.changes.length} change${result.changes.length === 1 ? '' : 's'}`}
              <ul data-testid="setup-import-changes">
                {result.changes.map((change) => (
                  <li key={change}>{change}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
      ) : null}
      {result && result.warnings.length > 0 ? (
        <div className="banner banner-warn" data-testid="setup-import-warnings">
          <ul>
            {result.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorBanner message={error} testId="setup-error" />
    </div>
  )
}
