import { parseAbiItem, type RpcStateOverride, zeroAddress } from 'viem'
import { canonicalAddresses } from '../../chain/constants'
import type { Chain } from '../../chain/types'
import { getVersionContracts } from '../../chain/versionContracts'
import { InvalidInputError } from '../../errors'
import { parseParam } from '../../schemas/parseParam'
import { formatDecimalSponsorResult } from '../paymaster/formatSponsorResult'
import { PLACEHOLDER_SIGNATURE, STUB_SIGNATURE } from '../paymaster/placeholderSignature'
import { overrideGasTankBalance, overrideTokenBalance } from '../paymaster/simulationOverrides'
import type {
  Fees,
  GasLimits,
  PaymasterBinding,
  PaymasterChoice,
  SponsorableOperation,
} from '../paymaster/sponsorableOperation'
import { TOKEN_PAYMASTER_UNACCOUNTED_COST } from '../paymaster/tokenPaymasterCost'
import { computeUserOpHash } from './computeUserOpHash'
import { estimateUserOperationGas } from './estimateUserOperationGas'
import type { SignableUserOperation } from './hashForPaymaster'
import {
  encodeTokenPaymasterAndData,
  PriceSource,
  signTokenPaymasterAndData,
  type TokenPaymasterFields,
} from './tokenPaymasterAndData'
import type { UserOperationV06 } from './userOperation'
import {
  type PartialUserOperation,
  PartialUserOperationSchema,
  toWirePartialUserOperation,
} from './userOperation'
import { encodeVerifyingPaymasterAndData, signVerifyingPaymasterAndData } from './verifyingPaymasterAndData'

/** verificationGasLimit floor in ERC20 mode: above the token paymaster's UNACCOUNTED_COST and enough for its postOp. */
const MIN_TOKEN_VERIFICATION_GAS = 120_000n

/** Biconomy's VerifyingSingletonPaymaster charges a gas tank in its postOp with this event. */
const GAS_BALANCE_DEDUCTED = parseAbiItem(
  'event GasBalanceDeducted(address indexed _paymasterId, uint256 indexed _charge)',
)

/**
 * v0.6's paymasters, Biconomy's: VerifyingSingletonPaymaster (gas tanks) and the token paymaster, their
 * paymasterAndData layouts and hashes (biconomy-protocol.md section 4).
 */
export const paymasterV06: PaymasterBinding = {
  bind: (raw) => bindPaymasterV06(parseParam(PartialUserOperationSchema, raw, 'params[0]')),
  formatSponsorResult: formatDecimalSponsorResult,
  chargeEvent: GAS_BALANCE_DEDUCTED,
}

/** A v0.6 operation of a paymaster request, bound to Biconomy's v0.6 paymasters. */
export function bindPaymasterV06(op: PartialUserOperation): SponsorableOperation {
  const paymasterAddress = (chain: Chain, kind: PaymasterChoice['kind']) =>
    getVersionContracts(chain, '0.6')[kind].address
  const tokenFields = (
    chain: Chain,
    choice: Extract<PaymasterChoice, { kind: 'token' }>,
  ): TokenPaymasterFields => ({
    paymaster: chain.addresses.tokenPaymaster,
    priceSource: PriceSource.externalExchangeRate,
    validUntil: choice.validUntil,
    validAfter: choice.validAfter,
    feeToken: choice.feeToken,
    oracleAggregator: zeroAddress,
    exchangeRate: choice.exchangeRate,
    priceMarkup: choice.priceMarkup,
  })
  /** paymasterAndData with a signature that is not the paymaster's (a placeholder or the stub's). */
  const encodeUnsigned = (chain: Chain, choice: PaymasterChoice, signature: `0x${string}`) =>
    choice.kind === 'verifying'
      ? encodeVerifyingPaymasterAndData({
          ...choice,
          paymaster: chain.addresses.verifyingPaymaster,
          signature,
        })
      : encodeTokenPaymasterAndData({ ...tokenFields(chain, choice), signature })
  const signFor = (chain: Chain, choice: PaymasterChoice) => (signable: SignableUserOperation) =>
    choice.kind === 'verifying'
      ? signVerifyingPaymasterAndData(signable, {
          ...choice,
          paymaster: chain.addresses.verifyingPaymaster,
          chainId: chain.chainId,
          signer: chain.paymasterSigner,
        })
      : signTokenPaymasterAndData(signable, {
          ...tokenFields(chain, choice),
          chainId: chain.chainId,
          signer: chain.paymasterSigner,
        })

  /**
   * The v0.6 estimator run on the operation as it will be sent: with a paymaster, its paymasterAndData at its final
   * length (preVerificationGas counts it) and signed for each trial (its validation takes the signed path and its
   * postOp is measured), the paymaster's balance check lifted; without one, the user pays.
   */
  const estimate = async (
    chain: Chain,
    fees: Fees,
    paymaster?: {
      placeholder: `0x${string}`
      sign: (op: UserOperationV06) => Promise<`0x${string}`>
      stateOverride: RpcStateOverride
      minVerificationGasLimit: bigint
    },
  ): Promise<GasLimits> => {
    const estimate = await estimateUserOperationGas({
      chain,
      userOperation: { ...op, ...fees, paymasterAndData: paymaster?.placeholder ?? '0x' },
      gasFees: fees,
      stateOverride: paymaster?.stateOverride,
      preparePaymasterAndData: paymaster?.sign,
    })
    const min = paymaster?.minVerificationGasLimit ?? 0n
    return {
      callGasLimit: estimate.callGasLimit,
      verificationGasLimit: estimate.verificationGasLimit > min ? estimate.verificationGasLimit : min,
      preVerificationGas: estimate.preVerificationGas,
    }
  }

  const ownGas =
    op.callGasLimit !== undefined &&
    op.verificationGasLimit !== undefined &&
    op.preVerificationGas !== undefined
      ? {
          callGasLimit: op.callGasLimit,
          verificationGasLimit: op.verificationGasLimit,
          preVerificationGas: op.preVerificationGas,
        }
      : null

  return {
    entryPointVersion: '0.6',
    entryPoint: canonicalAddresses.entryPoint,
    sender: op.sender,
    nonce: op.nonce,
    callData: op.callData,
    initCode: op.initCode,
    fees: { maxFeePerGas: op.maxFeePerGas, maxPriorityFeePerGas: op.maxPriorityFeePerGas },
    ownGas,
    carriesGasLimits:
      ownGas !== null && ownGas.callGasLimit + ownGas.verificationGasLimit + ownGas.preVerificationGas !== 0n,
    blockWindows: false,
    paymasterAddress,
    // v0.6's account signs paymasterAndData whole: the paymaster always signs first.
    carriedWindow: () => null,
    toWire: () => toWirePartialUserOperation(op),

    estimate(chain, fees, choice) {
      if (!choice) return estimate(chain, fees)
      return estimate(chain, fees, {
        placeholder: encodeUnsigned(chain, choice, PLACEHOLDER_SIGNATURE),
        sign: signFor(chain, choice),
        stateOverride:
          choice.kind === 'verifying'
            ? overrideGasTankBalance(chain.addresses.verifyingPaymaster, choice.paymasterId)
            : overrideTokenBalance(choice.feeToken, op.sender),
        minVerificationGasLimit: choice.kind === 'token' ? MIN_TOKEN_VERIFICATION_GAS : 0n,
      })
    },

    async sign(chain, choice, gas, fees) {
      if (choice.kind === 'token' && gas.verificationGasLimit <= TOKEN_PAYMASTER_UNACCOUNTED_COST) {
        throw new InvalidInputError(
          `verificationGasLimit must be above ${TOKEN_PAYMASTER_UNACCOUNTED_COST} for the token paymaster`,
        )
      }
      return { paymasterAndData: await signFor(chain, choice)({ ...op, ...gas, ...fees }) }
    },

    async stub(chain, choice) {
      // Well-formed, but it does not verify (STUB_SIGNATURE): the paymaster signs the operation as sent.
      return { paymasterAndData: encodeUnsigned(chain, choice, STUB_SIGNATURE) }
    },

    computeUserOpHash: (chain, gas: GasLimits, fees, paymaster) =>
      computeUserOpHash(
        {
          sender: op.sender,
          nonce: op.nonce,
          initCode: op.initCode,
          callData: op.callData,
          callGasLimit: gas.callGasLimit,
          verificationGasLimit: gas.verificationGasLimit,
          preVerificationGas: gas.preVerificationGas,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
          paymasterAndData: paymaster?.paymasterAndData ?? '0x',
          signature: '0x',
        },
        chain.chainId,
        canonicalAddresses.entryPoint,
      ),

    // The EntryPoint's prefund with a paymaster: (callGasLimit + 3 × verificationGasLimit + preVerificationGas) ×
    // maxFeePerGas (the third verificationGasLimit is the postOp's).
    maxCost: (gas, maxFeePerGas) =>
      (gas.callGasLimit + 3n * gas.verificationGasLimit + gas.preVerificationGas) * maxFeePerGas,
  }
}
