/** Opstation's programmatic API: `import { startOpstation } from 'opstation'`. */
export { formatExplanation } from '../../shared/formatExplanation.js'
export { startOpstation } from './startOpstation.js'
export type {
  Opstation,
  OpstationAddresses,
  OpstationChain,
  OpstationChainSpec,
  OpstationDapp,
  OpstationExplanation,
  OpstationSetup,
  OpstationToken,
  StartOpstationOptions,
} from './types.js'
