import type { SandboxAccountType } from '../../../../shared/sandbox'
import { kernelV3_1 } from './kernelV3_1'
import { lightAccountV2 } from './lightAccountV2'
import { nexusV1 } from './nexusV1'
import { safeV07 } from './safeV07'
import { simple7702V08 } from './simple7702V08'
import { simpleAccountV06 } from './simpleAccountV06'
import { simpleAccountV07 } from './simpleAccountV07'
import { smartAccountV2 } from './smartAccountV2'
import type { SandboxAccountKind } from './types'

/** Every sandbox account type, by its `type`. */
export const SANDBOX_ACCOUNT_KINDS: Record<SandboxAccountType, SandboxAccountKind> = {
  SMART_ACCOUNT_V2: smartAccountV2,
  SIMPLE_ACCOUNT: simpleAccountV06,
  SIMPLE_ACCOUNT_V07: simpleAccountV07,
  SIMPLE_7702_V08: simple7702V08,
  SAFE_V07: safeV07,
  KERNEL_V3_1: kernelV3_1,
  LIGHT_ACCOUNT_V2: lightAccountV2,
  NEXUS: nexusV1,
}

export type { Call, SandboxAccountKind, WireOperation } from './types'
