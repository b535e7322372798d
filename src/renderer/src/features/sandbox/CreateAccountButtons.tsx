import { ENTRY_POINT_VERSIONS } from '../../../../shared/entryPointVersions'
import {
  SANDBOX_ACCOUNT_ENTRY_POINT,
  SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS,
  SANDBOX_ACCOUNT_TYPES,
  type SandboxAccountType,
} from '../../../../shared/sandbox'

/** Each sandbox account type's create button: its test id and its name on the button. */
const BUTTONS: Record<SandboxAccountType, { testId: string; text: string }> = {
  SMART_ACCOUNT_V2: { testId: 'sandbox-create-sa2', text: 'Smart Account v2' },
  SIMPLE_ACCOUNT: { testId: 'sandbox-create-simple', text: 'SimpleAccount' },
  SAFE_V06: { testId: 'sandbox-create-safe-v06', text: 'Safe 1.4.1' },
  KERNEL_V2_4: { testId: 'sandbox-create-kernel-v2', text: 'Kernel v2.4' },
  LIGHT_ACCOUNT_V1_1: { testId: 'sandbox-create-light-v1', text: 'LightAccount v1.1' },
  TRUST: { testId: 'sandbox-create-trust', text: 'Trust (Barz)' },
  THIRDWEB_V06: { testId: 'sandbox-create-thirdweb-v06', text: 'thirdweb' },
  COINBASE_V1: { testId: 'sandbox-create-coinbase', text: 'Coinbase Smart Wallet' },
  COINBASE_V1_1: { testId: 'sandbox-create-coinbase-v1-1', text: 'Coinbase Smart Wallet v1.1' },
  MODULAR_ACCOUNT_V1: { testId: 'sandbox-create-modular-v1', text: 'Modular Account v1' },
  SIMPLE_ACCOUNT_V07: { testId: 'sandbox-create-simple-v07', text: 'SimpleAccount' },
  SAFE_V07: { testId: 'sandbox-create-safe', text: 'Safe 1.4.1' },
  KERNEL_V3_1: { testId: 'sandbox-create-kernel', text: 'Kernel v3.1' },
  LIGHT_ACCOUNT_V2: { testId: 'sandbox-create-light', text: 'LightAccount v2' },
  NEXUS: { testId: 'sandbox-create-nexus', text: 'Nexus' },
  ETHERSPOT: { testId: 'sandbox-create-etherspot', text: 'Etherspot' },
  THIRDWEB_V07: { testId: 'sandbox-create-thirdweb-v07', text: 'thirdweb' },
  MODULAR_ACCOUNT_V2: { testId: 'sandbox-create-modular-v2', text: 'Modular Account v2' },
  SOLADY_V07: { testId: 'sandbox-create-solady', text: 'Solady' },
  MODULAR_ACCOUNT_V1_MULTISIG: {
    testId: 'sandbox-create-modular-v1-multisig',
    text: 'Modular Account v1 multisig',
  },
  SIMPLE_7702_V08: { testId: 'sandbox-create-7702', text: 'EIP-7702 account' },
  SIMPLE_7702_V09: { testId: 'sandbox-create-7702-v09', text: 'EIP-7702 account' },
}

/** The account types by the EntryPoint they run on, oldest first. */
const GROUPS = ENTRY_POINT_VERSIONS.map((version) => ({
  version,
  types: SANDBOX_ACCOUNT_TYPES.filter((type) => SANDBOX_ACCOUNT_ENTRY_POINT[type] === version),
}))

/** A row of "new account" buttons per EntryPoint version: every sandbox account type once. */
export function CreateAccountButtons({
  disabled,
  onCreate,
}: {
  disabled: boolean
  onCreate: (type: SandboxAccountType) => void
}) {
  return (
    <div className="stack" style={{ gap: 4, marginBottom: 8 }} data-testid="sandbox-create">
      {GROUPS.map((group) => (
        <div key={group.version} style={{ display: 'flex', gap: 6, alignItems: 'baseline' }}>
          <span className="muted small" style={{ flex: '0 0 84px' }}>
            New on v{group.version}:
          </span>
          <div className="inline-actions">
            {group.types.map((type) => {
              const refusal = SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS[type]
              return (
                <button
                  key={type}
                  type="button"
                  className="btn btn-small"
                  disabled={disabled}
                  data-testid={BUTTONS[type].testId}
                  title={
                    refusal
                      ? `Runs only with the bundler's safety rules off (unsafe mode) [${refusal.rule}]`
                      : undefined
                  }
                  onClick={() => onCreate(type)}
                >
                  {BUTTONS[type].text}
                  {refusal ? ' ⚠' : ''}
                </button>
              )
            })}
          </div>
        </div>
      ))}
    </div>
  )
}
