import { Component, type ErrorInfo, type ReactNode, useEffect } from 'react'
import { ErrorBanner, Spinner } from './components/Feedback'
import { Layout } from './components/Layout'
import { ActivityPage } from './features/activity/ActivityPage'
import { SandboxPage } from './features/sandbox/SandboxPage'
import { TimePage } from './features/time/TimePage'
import { ContractsPage } from './pages/ContractsPage'
import { OverviewPage } from './pages/OverviewPage'
import { PaymasterPage } from './pages/PaymasterPage'
import { PaymastersPage } from './pages/PaymastersPage'
import { SettingsPage } from './pages/SettingsPage'
import { SignInPage } from './pages/SignInPage'
import { WebhooksPage } from './pages/WebhooksPage'
import { usePaymastersStore } from './stores/usePaymastersStore'
import { useRouteStore } from './stores/useRouteStore'
import { startStatusPolling, useServiceStore } from './stores/useServiceStore'

function Routes() {
  const segments = useRouteStore((s) => s.segments)
  const [first, second, third] = segments
  switch (first) {
    case undefined:
    case 'overview':
      return <OverviewPage />
    case 'paymasters':
      return second ? <PaymasterPage apiKey={second} tab={third ?? 'overview'} /> : <PaymastersPage />
    case 'contracts':
      return <ContractsPage />
    case 'webhooks':
      return <WebhooksPage />
    case 'activity':
      return <ActivityPage selected={second ?? null} />
    case 'sandbox':
      return <SandboxPage />
    case 'time':
      return <TimePage />
    case 'settings':
      return <SettingsPage />
    default:
      return <ErrorBanner title="Not found" message={`There is no console page "${segments.join('/')}".`} />
  }
}

/** A render error shows its message and a way back, never a blank screen. */
class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null }
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null })
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('console render error', error, info.componentStack)
  }
  override render() {
    if (this.state.error) {
      return (
        <div className="page">
          <ErrorBanner
            title="This page failed to render"
            message={this.state.error.message}
            onRetry={() => this.setState({ error: null })}
          />
        </div>
      )
    }
    return this.props.children
  }
}

export function App() {
  const connecting = useServiceStore((s) => s.connecting)
  const error = useServiceStore((s) => s.error)
  const authToken = useServiceStore((s) => s.authToken)
  const signInRequired = useServiceStore((s) => s.signInRequired)
  const connect = useServiceStore((s) => s.connect)
  const loadPaymasters = usePaymastersStore((s) => s.load)
  const resetKey = useRouteStore((s) => s.segments.join('/'))

  useEffect(() => {
    void connect()
    return startStatusPolling()
  }, [connect])
  useEffect(() => {
    if (authToken) void loadPaymasters()
  }, [authToken, loadPaymasters])

  return (
    <Layout>
      <div
        data-testid="app-ready"
        data-state={signInRequired ? 'sign-in' : connecting ? 'connecting' : error ? 'error' : 'ready'}
        hidden
      />
      {signInRequired ? (
        <SignInPage />
      ) : connecting ? (
        <div className="page">
          <Spinner label="Connecting to the service…" />
        </div>
      ) : error && !authToken ? (
        <div className="page">
          <ErrorBanner
            title="Cannot reach the Opstation service"
            message={error}
            onRetry={() => void connect()}
          />
        </div>
      ) : (
        <ErrorBoundary resetKey={resetKey}>
          <Routes />
        </ErrorBoundary>
      )}
    </Layout>
  )
}
