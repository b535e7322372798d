import type { AuthorizationCheck as Check } from '../../../../shared/api/explanation'
import { Badge } from '../../components/Feedback'
import { Hex } from '../../components/Mono'
import { keyed } from '../../lib/format'

/**
 * An operation's EIP-7702 authorization: the address it delegates the sender to, whether it was (or would be)
 * applied and, when not, why (its signer, chain id, nonce, or a delegation already in place).
 */
export function AuthorizationCheck({ authorization: a }: { authorization: Check }) {
  const applied = a.applied === true ? 'applied' : a.applied === false ? 'not applied' : 'not known'
  return (
    <div className="stack" data-testid="explain-authorization" data-applied={String(a.applied)}>
      <div>
        <Badge
          tone={a.applied === true ? 'ok' : a.applied === false ? 'bad' : 'neutral'}
          testId="explain-authorization-applied"
        >
          {applied}
        </Badge>{' '}
        <span className="muted small">delegates to </span>
        <Hex value={a.address} />
      </div>
      <div className="muted small">
        chain id <code className="mono">{a.chainId}</code>, nonce <code className="mono">{a.nonce}</code>,
        signed by {a.signer ? <Hex value={a.signer} /> : 'an unrecoverable signature'}; delegated before to{' '}
        {a.delegatedBefore ? <Hex value={a.delegatedBefore} /> : 'nothing (a plain EOA)'}
      </div>
      {a.reasons.length > 0 ? (
        <ul className="failure-reason" data-testid="explain-authorization-reasons">
          {keyed(a.reasons).map(({ item, key }) => (
            <li key={key}>{item}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
