import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  type LocalAccount,
} from 'viem'
import type { SandboxAccountType } from '../../../shared/sandbox'
import { simpleAccountAbi, simpleAccountFactoryAbi } from '../chain/abis/simpleAccount'
import { ecdsaModuleAbi, smartAccountAbi, smartAccountFactoryAbi } from '../chain/abis/smartAccount'
import type { Chain } from '../chain/types'

export type Call = { to: Address; value: bigint; data: Hex }

/** The 65-byte dummy signature the Biconomy SDK uses during estimation (ECDSA module returns SIG_VALIDATION_FAILED). */
const DUMMY_ECDSA_SIGNATURE: Hex = `0x${'f'.repeat(31)}0${'0'.repeat(32)}7${'a'.repeat(63)}1c`

function smartAccountSetup(owner: Address): Hex {
  return encodeFunctionData({ abi: ecdsaModuleAbi, functionName: 'initForSmartAccount', args: [owner] })
}

/** The counterfactual address, read from the factory (the same one the SDK computes off-chain). */
export async function getAccountAddress(
  chain: Chain,
  type: SandboxAccountType,
  owner: Address,
  index: number,
): Promise<Address> {
  if (type === 'SMART_ACCOUNT_V2') {
    return chain.publicClient.readContract({
      address: chain.addresses.smartAccountFactory,
      abi: smartAccountFactoryAbi,
      functionName: 'getAddressForCounterFactualAccount',
      args: [chain.addresses.ecdsaModule, smartAccountSetup(owner), BigInt(index)],
    })
  }
  return chain.publicClient.readContract({
    address: chain.addresses.simpleAccountFactory,
    abi: simpleAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owner, BigInt(index)],
  })
}

/** factory ‖ deploy call: what deploys the account in its first UserOperation. */
export function getInitCode(chain: Chain, type: SandboxAccountType, owner: Address, index: number): Hex {
  if (type === 'SMART_ACCOUNT_V2') {
    return concat([
      chain.addresses.smartAccountFactory,
      encodeFunctionData({
        abi: smartAccountFactoryAbi,
        functionName: 'deployCounterFactualAccount',
        args: [chain.addresses.ecdsaModule, smartAccountSetup(owner), BigInt(index)],
      }),
    ])
  }
  return concat([
    chain.addresses.simpleAccountFactory,
    encodeFunctionData({
      abi: simpleAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner, BigInt(index)],
    }),
  ])
}

/**
 * The account's callData for `calls`: SA v2 uses the SDK's selectors (`execute_ncC`, `executeBatch_y6U`);
 * SimpleAccount `execute` / `executeBatch` (v0.6 batches carry no value).
 */
export function encodeCalls(type: SandboxAccountType, calls: Call[]): Hex {
  if (calls.length === 0) return '0x'
  if (type === 'SMART_ACCOUNT_V2') {
    if (calls.length === 1) {
      const [c] = calls as [Call]
      return encodeFunctionData({
        abi: smartAccountAbi,
        functionName: 'execute_ncC',
        args: [c.to, c.value, c.data],
      })
    }
    return encodeFunctionData({
      abi: smartAccountAbi,
      functionName: 'executeBatch_y6U',
      args: [calls.map((c) => c.to), calls.map((c) => c.value), calls.map((c) => c.data)],
    })
  }
  if (calls.length === 1) {
    const [c] = calls as [Call]
    return encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'execute',
      args: [c.to, c.value, c.data],
    })
  }
  if (calls.some((c) => c.value !== 0n)) {
    throw new Error('SimpleAccount v0.6 batches cannot send ETH: send value in a single call')
  }
  return encodeFunctionData({
    abi: simpleAccountAbi,
    functionName: 'executeBatch',
    args: [calls.map((c) => c.to), calls.map((c) => c.data)],
  })
}

/** A signature of the right shape that fails validation softly (for estimation). */
export function getDummySignature(chain: Chain, type: SandboxAccountType): Hex {
  if (type === 'SMART_ACCOUNT_V2') {
    return encodeAbiParameters(
      [{ type: 'bytes' }, { type: 'address' }],
      [DUMMY_ECDSA_SIGNATURE, chain.addresses.ecdsaModule],
    )
  }
  return DUMMY_ECDSA_SIGNATURE
}

/** Owner's EIP-191 signature of the userOpHash, wrapped for the ECDSA module on SA v2. */
export async function signUserOpHash(
  chain: Chain,
  type: SandboxAccountType,
  owner: LocalAccount,
  userOpHash: Hex,
): Promise<Hex> {
  const signature = await owner.signMessage({ message: { raw: userOpHash } })
  if (type === 'SMART_ACCOUNT_V2') {
    return encodeAbiParameters(
      [{ type: 'bytes' }, { type: 'address' }],
      [signature, chain.addresses.ecdsaModule],
    )
  }
  return signature
}
