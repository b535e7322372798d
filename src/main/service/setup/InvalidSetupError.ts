import { InvalidInputError } from '../errors'

/**
 * A setup file that cannot be applied as written: a field that does not parse, or one the service's state refuses
 * (an apiKey of another dApp). The message names the file and the field's path; a 400 over the console API, exit
 * code 2 at the command line (like a bad flag).
 */
export class InvalidSetupError extends InvalidInputError {
  override name = 'InvalidSetupError'
}
