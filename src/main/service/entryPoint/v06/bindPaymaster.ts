import { zeroAddress } from 'viem'
import type { Chain } from '../../chain'
import { getVersionContracts } from '../../chain/versionContracts'
import { InvalidInputError } from '../../errors'
import { formatUserOperation } from '../../paymaster/formatUserOperation'
import type { GasLimits, PartialUserOperation, SignableUserOperation } from '../../paymaster/types'
import { getMaxOperationCost } from '../../policy/checkGasTank'
import { overrideGasTankBalance, overrideTokenBalance } from '../paymaster/simulationOverrides'
import type { PaymasterChoice, SponsorableOperation } from '../paymaster/sponsorableOperation'
import { computeUserOpHash } from './computeUserOpHash'
import { estimateGasLimits, PLACEHOLDER_SIGNATURE } from './estimatePaymasterGasLimits'
import {
  encodeTokenPaymasterAndData,
  PriceSource,
  signTokenPaymasterAndData,
  TOKEN_PAYMASTER_UNACCOUNTED_COST,
  type TokenPaymasterFields,
} from './tokenPaymasterAndData'
import { encodeVerifyingPaymasterAndData, signVerifyingPaymasterAndData } from './verifyingPaymasterAndData'

/** verificationGasLimit floor in ERC20 mode: above the token paymaster's UNACCOUNTED_COST and enough for its postOp. */
const MIN_TOKEN_VERIFICATION_GAS = 120_000n

/**
 * A v0.6 operation of a paymaster request, bound to Biconomy's v0.6 paymasters: VerifyingSingletonPaymaster
 * (gas tanks) and the token paymaster, their paymasterAndData layouts and hashes (biconomy-protocol.md section 4).
 */
export function bindOperationV06(
  chainEntryPoint: { address: `0x${string}` },
  op: PartialUserOperation,
): SponsorableOperation {
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
    entryPoint: chainEntryPoint.address,
    sender: op.sender,
    nonce: op.nonce,
    callData: op.callData,
    initCode: op.initCode,
    fees: { maxFeePerGas: op.maxFeePerGas, maxPriorityFeePerGas: op.maxPriorityFeePerGas },
    ownGas,
    paymasterAddress,
    toWire: () => formatUserOperation(op),

    estimate(chain, fees, choice) {
      if (!choice) return estimateGasLimits({ chain, op: { ...op, ...fees } })
      const placeholder =
        choice.kind === 'verifying'
          ? encodeVerifyingPaymasterAndData({
              ...choice,
              paymaster: chain.addresses.verifyingPaymaster,
              signature: PLACEHOLDER_SIGNATURE,
            })
          : encodeTokenPaymasterAndData({ ...tokenFields(chain, choice), signature: PLACEHOLDER_SIGNATURE })
      return estimateGasLimits({
        chain,
        op: { ...op, ...fees },
        paymaster: {
          placeholder,
          sign: signFor(chain, choice),
          stateOverride:
            choice.kind === 'verifying'
              ? overrideGasTankBalance(chain.addresses.verifyingPaymaster, choice.paymasterId)
              : overrideTokenBalance(choice.feeToken, op.sender),
        },
        minVerificationGasLimit: choice.kind === 'token' ? MIN_TOKEN_VERIFICATION_GAS : undefined,
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
      // Signed over zero limits and fees: well-formed, but it does not verify for the operation as sent.
      const zero = { callGasLimit: 0n, verificationGasLimit: 0n, preVerificationGas: 0n }
      return {
        paymasterAndData: await signFor(
          chain,
          choice,
        )({ ...op, ...zero, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }),
      }
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
        chainEntryPoint.address,
      ),

    maxCost: (gas, maxFeePerGas) => getMaxOperationCost({ ...gas, maxFeePerGas }),
  }
}
