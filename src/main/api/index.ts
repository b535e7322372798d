/** Opstation's programmatic API: `import { startOpstation } from 'opstation'`. */
export { startOpstation } from './startOpstation.js'
export type {
  Opstation,
  OpstationAddresses,
  OpstationChainSpec,
  OpstationDapp,
  OpstationSetup,
  OpstationToken,
  StartOpstationOptions,
} from './types.js'
