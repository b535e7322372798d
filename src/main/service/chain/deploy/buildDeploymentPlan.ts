import { type Address, concat, encodeAbiParameters, getContractAddress, type Hex, pad } from 'viem'
import {
  biconomyTokenPaymasterArtifact,
  defaultCallbackHandlerArtifact,
  ecdsaOwnershipRegistryModuleArtifact,
  entryPointArtifact,
  entryPointV07Artifact,
  entryPointV08Artifact,
  opstationTokenPaymasterArtifact,
  opstationTokenPaymasterV09Artifact,
  opstationVerifyingPaymasterArtifact,
  opstationVerifyingPaymasterV09Artifact,
  simple7702AccountV08Artifact,
  simpleAccountFactoryArtifact,
  simpleAccountFactoryV07Artifact,
  simpleAccountFactoryV08Artifact,
  smartAccountArtifact,
  smartAccountFactoryArtifact,
  testTokenArtifact,
  verifyingSingletonPaymasterArtifact,
} from '../artifacts'
import { entryPointV09Artifact, simple7702AccountV09Artifact } from '../artifacts/v09'
import { checksumAddress } from '../checksumAddress'
import { canonicalAddresses, entryPointSalts, testTokens } from '../constants'
import { keccak256Hex, keccak256OfCode } from '../keccak256'
import { getSmartAccountFactoryCode } from './getSmartAccountFactoryCode'
import { getAddressMappingSlot, getStorageSlot, toSlotHex, toStorageWord } from './getStorageSlot'
import { fillZeroPush32, patchImmutables } from './patchImmutables'

export type PlannedContract = {
  /** Name used in logs, `missing` and `mismatched`. */
  name: string
  address: Address
  /** Runtime code the address must hold. */
  expectedCode: Hex
  /**
   * `immutablesMasked`: `expectedCode` is the compiler's runtime code with its immutables left as `PUSH32 0`
   * placeholders (several immutables, some chain-dependent, such as v0.8's EIP-712 domain), and the code on chain
   * must equal it everywhere else. Default: exactly equal.
   */
  codeMatch?: 'exact' | 'immutablesMasked'
} & ({ via: 'create2'; salt: Hex; initCode: Hex } | { via: 'setCode'; storage: StorageWord[] })

/** A storage word the constructor would have written. `verify`: re-checked (and repaired) on every start. */
export type StorageWord = { label: string; slot: Hex; value: Hex; verify: boolean }

export type BuildDeploymentPlanParameters = {
  /** The node has `anvil_setCode`/`hardhat_setCode`: paymasters at Biconomy's addresses, else CREATE2-deployed. */
  canSetCode: boolean
  /** Owner of the paymasters and the SA v2 factory. */
  owner: Address
  /** Verifying signer of both paymasters. */
  signer: Address
}

const zeroSalt = pad('0x00', { size: 32 })
const SENTINEL_MODULES: Address = '0x0000000000000000000000000000000000000001'
/** OpenZeppelin 4.9 ReentrancyGuard `_NOT_ENTERED`. */
const NOT_ENTERED = 1n
/**
 * Gas the verifying paymaster charges a gas tank on top of `actualGasCost` in postOp, for the EntryPoint work
 * after postOp that `actualGasCost` cannot include yet. The contract's default (9600) charged SimpleAccount ops
 * ~8.7k gas less than the EntryPoint took from the paymaster's deposit, so the deposit slowly fell below the sum
 * of the tanks; 18500 charges about the real cost (measured: the paymaster's test gas-tank ops).
 */
const UNACCOUNTED_EP_GAS_OVERHEAD = 18_500n

/**
 * Address a CREATE2-deployer deployment lands at (salt 0 unless given): viem's `getContractAddress` (CREATE2), with the
 * hashes taken by js-sha3. Every start plans about a hundred deployments, some of large init code: with viem's keccak
 * that was 28 ms of each start's CPU.
 */
export function getCreate2Address(initCode: Hex, salt: Hex = zeroSalt): Address {
  const hash = keccak256Hex(
    concat(['0xff', canonicalAddresses.create2Deployer, pad(salt, { size: 32 }), keccak256OfCode(initCode)]),
  )
  return checksumAddress(`0x${hash.slice(-40)}`)
}

function create2(
  name: string,
  initCode: Hex,
  expectedCode: (address: Address) => Hex,
  options: { salt?: Hex; codeMatch?: PlannedContract['codeMatch'] } = {},
): PlannedContract {
  const salt = options.salt ?? zeroSalt
  const address = getCreate2Address(initCode, salt)
  return {
    name,
    address,
    via: 'create2',
    salt,
    initCode,
    expectedCode: expectedCode(address),
    codeMatch: options.codeMatch ?? 'exact',
  }
}

/** The first contract an address creates with CREATE (a constructor's `new`: the usual immutable). */
const firstCreatedBy = (address: Address) => getContractAddress({ from: address, nonce: 1n })

/**
 * The EntryPoints v0.7 and v0.8 at their canonical addresses (published salts), their SimpleAccountFactory (salt 0,
 * as viem and permissionless expect) and v0.8's Simple7702Account, all from the published artifacts. The v0.7 ones
 * hold one immutable each, which is filled in; v0.8's EntryPoint (EIP-712 domain) and factory hold several, so
 * their code is compared with the immutables masked.
 */
function planEntryPointsV07V08(): PlannedContract[] {
  const factoryInitCode = (bytecode: Hex, entryPoint: Address) =>
    concat([bytecode, encodeAbiParameters([{ type: 'address' }], [entryPoint])])
  const entryPointV07 = create2(
    'entryPointV07',
    entryPointV07Artifact.bytecode,
    (address) => fillZeroPush32(entryPointV07Artifact.deployedBytecode, firstCreatedBy(address)),
    { salt: entryPointSalts.v07 },
  )
  const entryPointV08 = create2(
    'entryPointV08',
    entryPointV08Artifact.bytecode,
    () => entryPointV08Artifact.deployedBytecode,
    { salt: entryPointSalts.v08, codeMatch: 'immutablesMasked' },
  )
  return [
    entryPointV07,
    create2(
      'simpleAccountFactoryV07',
      factoryInitCode(simpleAccountFactoryV07Artifact.bytecode, entryPointV07.address),
      (address) => fillZeroPush32(simpleAccountFactoryV07Artifact.deployedBytecode, firstCreatedBy(address)),
    ),
    entryPointV08,
    create2(
      'simpleAccountFactoryV08',
      factoryInitCode(simpleAccountFactoryV08Artifact.bytecode, entryPointV08.address),
      () => simpleAccountFactoryV08Artifact.deployedBytecode,
      { codeMatch: 'immutablesMasked' },
    ),
    create2(
      'simple7702AccountV08',
      simple7702AccountV08Artifact.bytecode,
      () => simple7702AccountV08Artifact.deployedBytecode,
    ),
  ]
}

/**
 * EntryPoint v0.9 and its Simple7702Account from the v0.9.0 release's deployment calldata (artifacts/v09, recorded by
 * scripts/record-entrypoint-v09.mjs): the EntryPoint with its salt (its code compared with the immutables masked:
 * the EIP-712 domain depends on the chain), the account with salt 0 (its one immutable, the EntryPoint, fixed).
 */
function planEntryPointV09(): PlannedContract[] {
  return [
    create2('entryPointV09', entryPointV09Artifact.bytecode, () => entryPointV09Artifact.deployedBytecode, {
      salt: entryPointV09Artifact.salt,
      codeMatch: 'immutablesMasked',
    }),
    create2(
      'simple7702AccountV09',
      simple7702AccountV09Artifact.bytecode,
      () => simple7702AccountV09Artifact.deployedBytecode,
      { salt: simple7702AccountV09Artifact.salt },
    ),
  ]
}

const word = (label: string, slot: bigint, value: bigint | Address, verify = true): StorageWord => ({
  label,
  slot: toSlotHex(slot),
  value: toStorageWord(value),
  verify,
})

function planPaymasters(p: BuildDeploymentPlanParameters): PlannedContract[] {
  const ep = canonicalAddresses.entryPoint
  const vp = verifyingSingletonPaymasterArtifact
  const tp = biconomyTokenPaymasterArtifact
  const vpCode = patchImmutables(vp.deployedBytecode, vp.immutables, { ENTRY_POINT: ep })
  const tpCode = patchImmutables(tp.deployedBytecode, tp.immutables, { ENTRY_POINT: ep })
  if (p.canSetCode) {
    const vpAddress = canonicalAddresses.verifyingPaymaster
    const tpAddress = canonicalAddresses.tokenPaymaster
    return [
      {
        name: 'verifyingPaymaster',
        address: vpAddress,
        via: 'setCode',
        expectedCode: vpCode,
        storage: [
          word('_owner', getStorageSlot(vp.storage, '_owner'), p.owner),
          word('_status', getStorageSlot(vp.storage, '_status'), NOT_ENTERED, false),
          word(
            '_unaccountedEPGasOverhead',
            getStorageSlot(vp.storage, '_unaccountedEPGasOverhead'),
            UNACCOUNTED_EP_GAS_OVERHEAD,
            false,
          ),
          word('verifyingSigner', getStorageSlot(vp.storage, 'verifyingSigner'), p.signer),
        ],
      },
      {
        name: 'tokenPaymaster',
        address: tpAddress,
        via: 'setCode',
        expectedCode: tpCode,
        storage: [
          word('_owner', getStorageSlot(tp.storage, '_owner'), p.owner),
          word('_status', getStorageSlot(tp.storage, '_status'), NOT_ENTERED, false),
          word('verifyingSigner', getStorageSlot(tp.storage, 'verifyingSigner'), p.signer),
          word('feeReceiver', getStorageSlot(tp.storage, 'feeReceiver'), tpAddress, false),
        ],
      },
    ]
  }
  const args = encodeAbiParameters(
    [{ type: 'address' }, { type: 'address' }, { type: 'address' }],
    [p.owner, ep, p.signer],
  )
  return [
    create2('verifyingPaymaster', concat([vp.bytecode, args]), () => vpCode),
    create2('tokenPaymaster', concat([tp.bytecode, args]), () => tpCode),
  ]
}

/**
 * Opstation's verifying and token paymasters for EntryPoint v0.7, v0.8 and v0.9 (`contracts/packed/`: one bytecode
 * for v0.7 and v0.8, v0.9's twins in `packed/v09/` read the service's signature from v0.9's paymasterSignature):
 * CREATE2 with salt 0, constructor (entryPoint, owner, signer), so their addresses follow the service's owner and
 * signer keys. Their one immutable is the EntryPoint.
 */
function planPackedPaymasters(p: BuildDeploymentPlanParameters, plan: PlannedContract[]): PlannedContract[] {
  const entryPointOf = (name: string) => {
    const item = plan.find((c) => c.name === name)
    if (!item) throw new Error(`${name} must be planned before its paymasters`)
    return item.address
  }
  return (['V07', 'V08', 'V09'] as const).flatMap((suffix) => {
    const entryPoint = entryPointOf(`entryPoint${suffix}`)
    const args = encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'address' }],
      [entryPoint, p.owner, p.signer],
    )
    const [verifying, token] =
      suffix === 'V09'
        ? [opstationVerifyingPaymasterV09Artifact, opstationTokenPaymasterV09Artifact]
        : [opstationVerifyingPaymasterArtifact, opstationTokenPaymasterArtifact]
    return (
      [
        [`verifyingPaymaster${suffix}`, verifying],
        [`tokenPaymaster${suffix}`, token],
      ] as const
    ).map(([name, artifact]) =>
      create2(name, concat([artifact.bytecode, args]), () =>
        patchImmutables(artifact.deployedBytecode, artifact.immutables, { entryPoint }),
      ),
    )
  })
}

/**
 * Everything the chain needs, in deployment order, with the runtime code each address must hold.
 * CREATE2 (deterministic deployer): the EntryPoints v0.6 (salt 0), v0.7 and v0.8 (their published salts), each one's
 * SimpleAccountFactory, v0.8's Simple7702Account, test tokens (and the paymasters when the node cannot set code). Set code (dev nodes): the SA v2 stack at Biconomy's addresses and the paymasters at
 * theirs, with immutables patched and the storage their constructors would have written.
 */
export function buildDeploymentPlan(p: BuildDeploymentPlanParameters): PlannedContract[] {
  const ep = canonicalAddresses.entryPoint
  const plan: PlannedContract[] = [
    create2('entryPoint', entryPointArtifact.bytecode, (address) =>
      // The EntryPoint's one immutable is the SenderCreator its constructor deploys (its first CREATE).
      fillZeroPush32(entryPointArtifact.deployedBytecode, firstCreatedBy(address)),
    ),
    create2(
      'simpleAccountFactory',
      concat([simpleAccountFactoryArtifact.bytecode, encodeAbiParameters([{ type: 'address' }], [ep])]),
      // Its one immutable is the SimpleAccount implementation its constructor deploys.
      (address) => fillZeroPush32(simpleAccountFactoryArtifact.deployedBytecode, firstCreatedBy(address)),
    ),
    ...planEntryPointsV07V08(),
    ...planEntryPointV09(),
  ]

  // Always planned: where code cannot be set they are verified if present, else reported missing.
  {
    const sa = smartAccountArtifact
    const factory = smartAccountFactoryArtifact
    plan.push(
      {
        name: 'smartAccountImplementation',
        address: canonicalAddresses.smartAccountImplementation,
        via: 'setCode',
        expectedCode: patchImmutables(sa.deployedBytecode, sa.immutables, {
          ENTRY_POINT: ep,
          SELF: canonicalAddresses.smartAccountImplementation,
        }),
        // constructor: _modules[SENTINEL_MODULES] = SENTINEL_MODULES (so nobody can init the implementation itself)
        storage: [
          word(
            '_modules[SENTINEL_MODULES]',
            getAddressMappingSlot(getStorageSlot(sa.storage, '_modules'), SENTINEL_MODULES),
            SENTINEL_MODULES,
          ),
        ],
      },
      {
        name: 'fallbackHandler',
        address: canonicalAddresses.fallbackHandler,
        via: 'setCode',
        expectedCode: defaultCallbackHandlerArtifact.deployedBytecode,
        storage: [],
      },
      {
        name: 'smartAccountFactory',
        address: canonicalAddresses.smartAccountFactory,
        via: 'setCode',
        expectedCode: getSmartAccountFactoryCode(),
        storage: [word('_owner', getStorageSlot(factory.storage, '_owner'), p.owner)],
      },
      {
        name: 'ecdsaModule',
        address: canonicalAddresses.ecdsaModule,
        via: 'setCode',
        expectedCode: ecdsaOwnershipRegistryModuleArtifact.deployedBytecode,
        storage: [],
      },
    )
  }

  plan.push(...planPaymasters(p), ...planPackedPaymasters(p, plan))

  for (const token of testTokens) {
    const args = encodeAbiParameters(
      [{ type: 'string' }, { type: 'string' }, { type: 'uint8' }],
      [token.name, token.symbol, token.decimals],
    )
    plan.push(
      create2(`token:${token.symbol}`, concat([testTokenArtifact.bytecode, args]), () =>
        patchImmutables(testTokenArtifact.deployedBytecode, testTokenArtifact.immutables, {
          _decimals: pad(`0x${token.decimals.toString(16).padStart(2, '0')}`, { size: 32 }),
        }),
      ),
    )
  }
  return plan
}
