import { type Address, type Hex, parseAbiItem, type RpcStateOverride } from 'viem'
import { opstationVerifyingPaymasterArtifact } from '../../chain/artifacts'
import { getAddressMappingSlot, getStorageSlot, toSlotHex } from '../../chain/deploy/getStorageSlot'
import type { Chain } from '../../chain/types'
import { getVersionContracts } from '../../chain/versionContracts'
import { InvalidInputError } from '../../errors'
import { parseParam } from '../../schemas/parseParam'
import { formatErc7769SponsorResult } from '../paymaster/formatSponsorResult'
import { PLACEHOLDER_SIGNATURE, STUB_SIGNATURE } from '../paymaster/placeholderSignature'
import { overrideStorageWord, overrideTokenBalance } from '../paymaster/simulationOverrides'
import type {
  GasLimits,
  PackedPaymasterFields,
  PaymasterBinding,
  PaymasterChoice,
  SignedPaymaster,
  SponsorableOperation,
} from '../paymaster/sponsorableOperation'
import { appendPaymasterSignature, placePaymasterSignature } from '../v09/paymasterSignature'
import type { PackedEntryPointModule } from './createPackedEntryPoint'
import { packInitCode, packPaymasterAndData, packUserOperation } from './packUserOperation'
import {
  encodeTokenPaymasterDataV07,
  encodeVerifyingPaymasterDataV07,
  getTokenPaymasterHashV07,
  getVerifyingPaymasterHashV07,
  readPaymasterWindowV07,
  signPaymasterHash,
} from './paymasterData'
import type { PartialUserOperationV07, UserOperationV07 } from './userOperation'

/** The gas fields a v0.7+ paymaster request carried (the schema fills absent ones with 0). */
export type GivenGasV07 = Partial<Record<keyof Required<GasLimits>, bigint>>

/**
 * The paymaster limits ERC-7677 stub data carries (clients such as viem keep them over the bundler's estimate, and
 * the final data signs them): above what each paymaster's signed validation and postOp measure (verifying about
 * 20k and 10k, token about 35k and 35k), so the operation as finally signed fits.
 */
const STUB_LIMITS: Record<PaymasterChoice['kind'], { verification: bigint; postOp: bigint }> = {
  verifying: { verification: 60_000n, postOp: 40_000n },
  token: { verification: 90_000n, postOp: 80_000n },
}

const BALANCES_SLOT = getStorageSlot(opstationVerifyingPaymasterArtifact.storage, 'paymasterIdBalances')

const GAS_FIELDS = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const

/** Opstation's packed verifying paymaster charges a gas tank in its postOp with this event. */
const GAS_TANK_CHARGED = parseAbiItem(
  'event GasTankCharged(address indexed paymasterId, address indexed sender, uint256 charge)',
)

/** The paymaster side of a v0.7 / v0.8 module: Opstation's packed paymasters (`contracts/packed/`). */
export function createPaymasterV07(module: Omit<PackedEntryPointModule, 'paymaster'>): PaymasterBinding {
  return {
    bind(raw) {
      const op = parseParam(module.partialUserOperationSchema, raw, 'params[0]')
      const fields = raw as Record<string, unknown>
      const given: GivenGasV07 = {}
      for (const field of GAS_FIELDS) if (fields[field] != null) given[field] = op[field]
      return bindPaymasterV07(module, op, given, { paymasterSignatureField: 'paymasterSignature' in fields })
    },
    formatSponsorResult: formatErc7769SponsorResult,
    chargeEvent: GAS_TANK_CHARGED,
  }
}

/**
 * A v0.7 / v0.8 / v0.9 operation of a paymaster request, bound to its EntryPoint module: Opstation's packed
 * paymasters (`contracts/packed/`) sign it, its limits come from the v0.7 estimator with the paymaster's data signed
 * for each trial, and its hash is the EntryPoint's. Where the module signs into v0.9's paymasterSignature, the
 * signature follows the paymasterData the account signs (placePaymasterSignature: its own field when the request
 * has one, `paymasterSignatureField`), and a window the operation already carries is kept (carriedWindow).
 */
export function bindPaymasterV07(
  module: Omit<PackedEntryPointModule, 'paymaster'>,
  op: PartialUserOperationV07,
  given: GivenGasV07,
  { paymasterSignatureField = false }: { paymasterSignatureField?: boolean } = {},
): SponsorableOperation {
  const version = module.version
  const paymasterAddress = (chain: Chain, kind: PaymasterChoice['kind']) =>
    getVersionContracts(chain, version)[kind].address

  const complete = (
    gas: Partial<GasLimits>,
    fees: { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint },
    paymaster: PackedPaymasterFields | null,
  ): UserOperationV07 => ({
    ...op,
    callGasLimit: gas.callGasLimit ?? 0n,
    verificationGasLimit: gas.verificationGasLimit ?? 0n,
    preVerificationGas: gas.preVerificationGas ?? 0n,
    maxFeePerGas: fees.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas ?? 0n,
    paymaster: paymaster?.paymaster ?? null,
    paymasterData: paymaster?.paymasterData ?? '0x',
    paymasterVerificationGasLimit: paymaster?.paymasterVerificationGasLimit ?? 0n,
    paymasterPostOpGasLimit: paymaster?.paymasterPostOpGasLimit ?? 0n,
    paymasterSignature: paymaster?.paymasterSignature,
  })

  /** The paymaster's fields and its signature (v0.9: apart; before it, the signature ends the fields). */
  const encodeData = (
    choice: PaymasterChoice,
    signature: Hex,
  ): { paymasterData: Hex; paymasterSignature?: Hex } => {
    if (!module.signsPaymasterSignature)
      return {
        paymasterData:
          choice.kind === 'verifying'
            ? encodeVerifyingPaymasterDataV07({ ...choice, signature })
            : encodeTokenPaymasterDataV07({ ...choice, signature }),
      }
    const fields =
      choice.kind === 'verifying'
        ? encodeVerifyingPaymasterDataV07({ ...choice, signature: '0x' })
        : encodeTokenPaymasterDataV07({ ...choice, signature: '0x' })
    return placePaymasterSignature(fields, signature, { asField: paymasterSignatureField })
  }
  /** The paymaster's part signed over `trial` (which names the paymaster and its limits). */
  const signData = async (chain: Chain, choice: PaymasterChoice, trial: UserOperationV07) => {
    const packed = packUserOperation({ ...trial, paymasterSignature: undefined })
    const paymaster = paymasterAddress(chain, choice.kind)
    const hash =
      choice.kind === 'verifying'
        ? getVerifyingPaymasterHashV07(packed, { ...choice, chainId: chain.chainId, paymaster })
        : getTokenPaymasterHashV07(packed, { ...choice, chainId: chain.chainId, paymaster })
    return encodeData(choice, await signPaymasterHash(hash, chain.paymasterSigner))
  }
  /** paymasterData with the paymaster's part in one field, as the estimator simulates it (packs the same). */
  const asOneField = (part: { paymasterData: Hex; paymasterSignature?: Hex }): Hex =>
    appendPaymasterSignature(part.paymasterData, part.paymasterSignature)
  const liftBalance = (chain: Chain, choice: PaymasterChoice): RpcStateOverride =>
    choice.kind === 'verifying'
      ? overrideStorageWord(
          paymasterAddress(chain, 'verifying'),
          toSlotHex(getAddressMappingSlot(BALANCES_SLOT, choice.paymasterId)),
        )
      : overrideTokenBalance(choice.feeToken, op.sender)

  const signed = async (chain: Chain, choice: PaymasterChoice, trial: UserOperationV07) => {
    const fields: PackedPaymasterFields = {
      paymaster: trial.paymaster as Address,
      ...(await signData(chain, choice, trial)),
      paymasterVerificationGasLimit: trial.paymasterVerificationGasLimit,
      paymasterPostOpGasLimit: trial.paymasterPostOpGasLimit,
    }
    return { paymasterAndData: packPaymasterAndData(fields), fields }
  }

  const ownGas =
    given.callGasLimit !== undefined &&
    given.verificationGasLimit !== undefined &&
    given.preVerificationGas !== undefined
      ? {
          callGasLimit: given.callGasLimit,
          verificationGasLimit: given.verificationGasLimit,
          preVerificationGas: given.preVerificationGas,
          paymasterVerificationGasLimit: given.paymasterVerificationGasLimit,
          paymasterPostOpGasLimit: given.paymasterPostOpGasLimit,
        }
      : null

  return {
    entryPointVersion: version,
    entryPoint: module.address,
    sender: op.sender,
    nonce: op.nonce,
    callData: op.callData,
    initCode: packInitCode(op),
    fees: op.given,
    ownGas,
    carriesGasLimits:
      ownGas !== null &&
      ownGas.callGasLimit + ownGas.verificationGasLimit + ownGas.preVerificationGas !== 0n &&
      ownGas.paymasterVerificationGasLimit !== undefined &&
      ownGas.paymasterPostOpGasLimit !== undefined,
    blockWindows: module.blockRanges,
    paymasterAddress,

    carriedWindow(chain, kind) {
      if (!module.signsPaymasterSignature || !op.paymaster) return null
      if (op.paymaster.toLowerCase() !== paymasterAddress(chain, kind).toLowerCase()) return null
      return readPaymasterWindowV07(kind, op.paymasterData)
    },

    toWire() {
      const wire = module.toWire(complete(given, op.given, null))
      for (const field of [
        'callGasLimit',
        'verificationGasLimit',
        'preVerificationGas',
        'maxFeePerGas',
        'maxPriorityFeePerGas',
      ] as const) {
        if ((given as Record<string, unknown>)[field] === undefined && op.given[field as never] === undefined)
          delete wire[field]
      }
      return wire
    },

    async estimate(chain, fees, choice) {
      const paymaster = choice ? paymasterAddress(chain, choice.kind) : null
      const estimate = await module.estimateGas({
        chain,
        userOperation: {
          ...op,
          paymaster,
          paymasterData: choice ? asOneField(encodeData(choice, PLACEHOLDER_SIGNATURE)) : '0x',
          paymasterSignature: undefined,
          given: fees,
        },
        gasFees: fees,
        stateOverride: choice ? liftBalance(chain, choice) : undefined,
        preparePaymasterData: choice
          ? async (trial) => asOneField(await signData(chain, choice, trial))
          : undefined,
      })
      return {
        callGasLimit: estimate.callGasLimit,
        verificationGasLimit: estimate.verificationGasLimit,
        preVerificationGas: estimate.preVerificationGas,
        ...(choice
          ? {
              paymasterVerificationGasLimit: estimate.paymasterVerificationGasLimit,
              paymasterPostOpGasLimit: estimate.paymasterPostOpGasLimit,
            }
          : {}),
      }
    },

    async sign(chain, choice, gas, fees) {
      if (gas.paymasterVerificationGasLimit === undefined || gas.paymasterPostOpGasLimit === undefined) {
        throw new InvalidInputError(
          `paymasterVerificationGasLimit and paymasterPostOpGasLimit are required for EntryPoint v${version} when calculateGasLimits is false: the paymaster signs them (estimate them with eth_estimateUserOperationGas and pm_getPaymasterStubData's data)`,
        )
      }
      const trial = complete(gas, fees, {
        paymaster: paymasterAddress(chain, choice.kind),
        paymasterData: '0x',
        paymasterVerificationGasLimit: gas.paymasterVerificationGasLimit,
        paymasterPostOpGasLimit: gas.paymasterPostOpGasLimit,
      })
      return signed(chain, choice, trial)
    },

    async stub(chain, choice) {
      // Well-formed, but it does not verify (STUB_SIGNATURE): the paymaster signs the operation as sent.
      const fields: PackedPaymasterFields = {
        paymaster: paymasterAddress(chain, choice.kind),
        ...encodeData(choice, STUB_SIGNATURE),
        paymasterVerificationGasLimit: STUB_LIMITS[choice.kind].verification,
        paymasterPostOpGasLimit: STUB_LIMITS[choice.kind].postOp,
      }
      return { paymasterAndData: packPaymasterAndData(fields), fields }
    },

    computeUserOpHash: (chain, gas, fees, paymaster: SignedPaymaster | null) =>
      module.computeUserOpHash(complete(gas, fees, paymaster?.fields ?? null), chain.chainId),

    maxCost: (gas, maxFeePerGas) =>
      (gas.verificationGasLimit +
        gas.callGasLimit +
        (gas.paymasterVerificationGasLimit ?? 0n) +
        (gas.paymasterPostOpGasLimit ?? 0n) +
        gas.preVerificationGas) *
      maxFeePerGas,
  }
}
