import type { SandboxAccountType } from '../../../../shared/sandbox'
import { coinbaseV1, coinbaseV1_1 } from './coinbaseSmartWallet'
import { etherspot } from './etherspot'
import { kernelV2_4 } from './kernelV2_4'
import { kernelV3_1 } from './kernelV3_1'
import { lightAccountV1_1 } from './lightAccountV1_1'
import { lightAccountV2 } from './lightAccountV2'
import { modularAccountV1 } from './modularAccountV1'
import { modularAccountV1Multisig } from './modularAccountV1Multisig'
import { modularAccountV2 } from './modularAccountV2'
import { nexusV1 } from './nexusV1'
import { safeV06 } from './safeV06'
import { safeV07 } from './safeV07'
import { simple7702V08, simple7702V09 } from './simple7702Account'
import { simpleAccountV06 } from './simpleAccountV06'
import { simpleAccountV07 } from './simpleAccountV07'
import { smartAccountV2 } from './smartAccountV2'
import { soladyV07 } from './soladyV07'
import { thirdwebV06 } from './thirdwebV06'
import { thirdwebV07 } from './thirdwebV07'
import { trustBarz } from './trustBarz'
import type { SandboxAccountKind } from './types'

/** Every sandbox account type, by its `type`. */
export const SANDBOX_ACCOUNT_KINDS: Record<SandboxAccountType, SandboxAccountKind> = {
  SMART_ACCOUNT_V2: smartAccountV2,
  SIMPLE_ACCOUNT: simpleAccountV06,
  SIMPLE_ACCOUNT_V07: simpleAccountV07,
  SIMPLE_7702_V08: simple7702V08,
  SIMPLE_7702_V09: simple7702V09,
  SAFE_V07: safeV07,
  KERNEL_V3_1: kernelV3_1,
  LIGHT_ACCOUNT_V2: lightAccountV2,
  NEXUS: nexusV1,
  SAFE_V06: safeV06,
  KERNEL_V2_4: kernelV2_4,
  LIGHT_ACCOUNT_V1_1: lightAccountV1_1,
  TRUST: trustBarz,
  THIRDWEB_V06: thirdwebV06,
  COINBASE_V1: coinbaseV1,
  COINBASE_V1_1: coinbaseV1_1,
  ETHERSPOT: etherspot,
  THIRDWEB_V07: thirdwebV07,
  MODULAR_ACCOUNT_V1: modularAccountV1,
  MODULAR_ACCOUNT_V2: modularAccountV2,
  SOLADY_V07: soladyV07,
  MODULAR_ACCOUNT_V1_MULTISIG: modularAccountV1Multisig,
}

export type { Call, SandboxAccountKind, WireOperation } from './types'
