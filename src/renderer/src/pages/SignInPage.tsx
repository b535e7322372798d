import { type FormEvent, useState } from 'react'
import { ErrorBanner } from '../components/Feedback'
import { PageHeader, Section } from '../components/Layout'
import { useServiceStore } from '../stores/useServiceStore'

/**
 * Shown when the browser has no console session: the console hands out the auth token only to a browser that
 * proved itself with the login URL's token (or the auth token).
 */
export function SignInPage() {
  const signIn = useServiceStore((s) => s.signIn)
  const error = useServiceStore((s) => s.signInError)
  const [token, setToken] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    await signIn(token.trim())
    setBusy(false)
  }
  return (
    <div className="page" data-testid="sign-in-page">
      <PageHeader title="Sign in to this Opstation" />
      <Section title="Open the login URL, or paste its token">
        <p>
          The console of this service needs proof that you started it. Open the console with the login URL
          Opstation printed when it started (<code className="mono">…/console/?token=…</code>: the desktop app
          does this for you), or paste that token (or the account's auth token) here.
        </p>
        <form className="form-row" onSubmit={(e) => void submit(e)}>
          <input
            className="mono field-wide"
            type="password"
            autoComplete="off"
            data-testid="sign-in-token"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            placeholder="login token"
          />
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || token.trim() === ''}
            data-testid="sign-in-submit"
          >
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        {error ? <ErrorBanner title="Not signed in" message={error} testId="sign-in-error" /> : null}
      </Section>
    </div>
  )
}
