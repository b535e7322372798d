/**
 * The bundler's UserOperation records are defined beside the console's view of them, in src/shared/api (the console
 * reads their types). This module keeps the bundler's imports working while its EntryPoint rework is under way;
 * new code imports src/shared/api/userOperations.ts.
 */
export {
  isUnfinished,
  type UserOperationRecord,
  UserOperationRecordSchema,
  type UserOperationStatus,
  UserOperationStatusSchema,
  WireUserOperationSchema,
  WireUserOperationV07Schema,
} from '../../../shared/api/userOperations'
