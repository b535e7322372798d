import { useEffect } from 'react'
import { subscribeToActivity, useActivityStore } from '../features/activity/useActivityStore'
import { useContractsStore } from '../stores/useContractsStore'
import { usePaymastersStore } from '../stores/usePaymastersStore'
import { useWebhooksStore } from '../stores/useWebhooksStore'
import { Section } from './Layout'
import { Link } from './Link'

type Item = { id: string; done: boolean; optional?: boolean; title: string; body: React.ReactNode }

/** Five steps from nothing to a sponsored operation, ticked off from what the service already has. */
export function GettingStarted() {
  const dapps = usePaymastersStore((s) => s.list.data)
  const selected = usePaymastersStore((s) => s.selectedApiKey)
  const dapp = dapps?.find((d) => d.apiKey === selected) ?? dapps?.[0]
  const contracts = useContractsStore((s) => (dapp ? s.byApiKey[dapp.apiKey]?.data : undefined))
  const loadContracts = useContractsStore((s) => s.load)
  const webhooks = useWebhooksStore((s) => (dapp ? s.byApiKey[dapp.apiKey]?.data : undefined))
  const loadWebhooks = useWebhooksStore((s) => s.load)
  const decisions = useActivityStore((s) => s.decisions.data)
  const ops = useActivityStore((s) => s.userOperations.data)
  useEffect(() => subscribeToActivity(), [])
  useEffect(() => {
    if (!dapp) return
    void loadContracts(dapp.apiKey)
    void loadWebhooks(dapp.apiKey)
  }, [dapp, loadContracts, loadWebhooks])

  const base = dapp ? `paymasters/${encodeURIComponent(dapp.apiKey)}` : 'paymasters'
  const sponsored = [...(decisions?.values() ?? [])].some((d) => d.sponsored)
  const mined = [...(ops?.values() ?? [])].some((o) => o.status === 'mined')
  const items: Item[] = [
    {
      id: 'dapp',
      done: !!dapps?.length,
      title: 'Create a dApp',
      body: (
        <>
          On <Link to="paymasters">Paymasters</Link>: it gets an apiKey, a paymaster URL and a gas tank with
          10 test ETH.
        </>
      ),
    },
    {
      id: 'contract',
      done: !!contracts?.some((c) => c.whitelistedMethods.length > 0),
      title: 'Whitelist what you sponsor',
      body: (
        <>
          Add the contract your dApp calls and tick the methods to sponsor (
          <Link to={`${base}/contracts`}>Smart contracts</Link>
          ). One click fills in a test token.
        </>
      ),
    },
    {
      id: 'webhook',
      done: !!webhooks?.some((w) => w.active),
      optional: true,
      title: 'Add a webhook (optional)',
      body: (
        <>
          Your own yes/no per request (<Link to={`${base}/webhooks`}>Webhooks</Link>); every call is logged.
        </>
      ),
    },
    {
      id: 'send',
      done: sponsored,
      title: 'Send a sponsored operation',
      body: (
        <>
          In the <Link to="sandbox">Sandbox</Link>: create a smart account, pick a method, press Send, and
          watch each request.
        </>
      ),
    },
    {
      id: 'watch',
      done: mined,
      title: 'Watch it in Activity',
      body: (
        <>
          <Link to="activity">Activity</Link> shows it mined, with its calls, gas and the policy steps that
          decided it. Then point your dApp at the URLs above.
        </>
      ),
    },
  ]
  if (items.every((i) => i.done || i.optional)) return null
  return (
    <Section title="Getting started" testId="getting-started">
      <ol className="checklist">
        {items.map((item) => (
          <li
            key={item.id}
            className={item.done ? 'done' : ''}
            data-testid={`start-${item.id}`}
            data-done={item.done}
          >
            <span className="check-mark">{item.done ? '✓' : ''}</span>
            <div>
              <strong>{item.title}</strong>
              <div className="muted">{item.body}</div>
            </div>
          </li>
        ))}
      </ol>
    </Section>
  )
}
