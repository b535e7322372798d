import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  parseAbi,
  toHex,
  zeroAddress,
} from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { getNonce } from '../../chain/entryPoint/getNonce'
import { entryPointV07 } from '../../entryPoint'
import { encodeErc7579Calls } from './encodeErc7579Calls'
import { signPackedOperationMessage } from './readPackedOperation'
import { readSenderAddress } from './readSenderAddress'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import type { SandboxAccountKind } from './types'

const walletFactoryAbi = parseAbi([
  'function createAccount(bytes32 salt, bytes initCode) payable returns (address)',
])
const bootstrapAbi = parseAbi([
  'struct BootstrapConfig { address module; bytes data; }',
  'function initMSA(BootstrapConfig[] validators, BootstrapConfig[] executors, BootstrapConfig hook, BootstrapConfig[] fallbacks)',
])
const moduleAbi = parseAbi(['function onInstall(bytes data)'])

/** A bootstrap entry as the SDK writes it: the module with `onInstall(0x)` as its data (zero address: none). */
const moduleConfig = (module: Address) => ({
  module,
  data: encodeFunctionData({ abi: moduleAbi, functionName: 'onInstall', args: ['0x'] }),
})

/**
 * The factory's `initCode`: abi.encode(owner, Bootstrap, `initMSA` installing the MultipleOwnerECDSAValidator and
 * empty executor, hook and fallback entries), as permissionless' getInitMSAData writes it.
 */
function encodeWalletInit(owner: Address): Hex {
  const initMsa = encodeFunctionData({
    abi: bootstrapAbi,
    functionName: 'initMSA',
    args: [
      [moduleConfig(getZooAddress('etherspotMultipleOwnerEcdsaValidator'))],
      [moduleConfig(zeroAddress)],
      moduleConfig(zeroAddress),
      [moduleConfig(zeroAddress)],
    ],
  })
  return encodeAbiParameters(
    [{ type: 'address' }, { type: 'address' }, { type: 'bytes' }],
    [owner, getZooAddress('etherspotBootstrap'), initMsa],
  )
}

const deploymentOf = (owner: Address, index: number) => ({
  factory: getZooAddress('etherspotWalletFactory'),
  factoryData: encodeFunctionData({
    abi: walletFactoryAbi,
    functionName: 'createAccount',
    args: [toHex(BigInt(index), { size: 32 }), encodeWalletInit(owner)],
  }),
})

/**
 * The wallet reads the validator of an operation from its nonce key: the validator's address ‖ mode 0x00 ‖ type
 * 0x00 ‖ key 0x0000, as permissionless' getNonceKeyWithEncoding builds it.
 */
const nonceKey = (): bigint =>
  BigInt(concat([getZooAddress('etherspotMultipleOwnerEcdsaValidator'), '0x00', '0x00', '0x0000']))

/**
 * Etherspot's modular wallet (ERC-7579, EntryPoint v0.7) with its MultipleOwnerECDSAValidator, as permissionless'
 * toEtherspotSmartAccount builds it: the wallet factory's `createAccount(index, init)` (the address from the
 * EntryPoint's getSenderAddress), ERC-7579 `execute`, the owner signing the userOpHash (EIP-191).
 */
export const etherspot: SandboxAccountKind = {
  type: 'ETHERSPOT',
  entryPoint: entryPointV07,
  getAddress: (chain, owner, index) => {
    const { factory, factoryData } = deploymentOf(owner, index)
    return readSenderAddress(chain, entryPointV07.address, factory, factoryData)
  },
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeErc7579Calls,
  async buildUserOperation(chain, account, parts) {
    const nonce = await getNonce(chain, account.address, nonceKey(), entryPointV07.address)
    return draftOperation(
      account,
      { ...parts, nonce },
      {
        ...entryPointV07.deploymentFields(parts.deployed ? null : deploymentOf(account.owner, account.index)),
        signature: DUMMY_ECDSA_SIGNATURE,
      },
    )
  },
  // The validator recovers the EIP-191 message of the userOpHash (the SDK signs it so).
  signUserOperation: (chain, account, input) =>
    signPackedOperationMessage(chain, entryPointV07, account, input),
}
