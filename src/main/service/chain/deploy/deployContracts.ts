import { type Address, concat, type Hex, numberToHex, type PublicClient } from 'viem'
import type { Logger } from '../../log/logger'
import { deployAccountZoo } from '../accountZoo/deployAccountZoo'
import { canonicalAddresses, create2DeployerRuntimeCode, defaults, testTokens } from '../constants'
import { requestRpc } from '../node/requestRpc'
import type { SubmitTransaction } from '../transactions/submitTransaction'
import type { ChainAddresses, ExecutorClient, NodeCapabilities } from '../types'
import { buildDeploymentPlan, type PlannedContract } from './buildDeploymentPlan'
import { ensureStakesAndDeposits } from './ensureStakesAndDeposits'
import { matchesWithImmutablesMasked } from './patchImmutables'

export type DeployContractsParameters = {
  publicClient: PublicClient
  executor: ExecutorClient
  /** Sends a transaction from the executor through its nonce manager (the one every sender shares). */
  submit: SubmitTransaction
  capabilities: NodeCapabilities
  /** Verifying signer of the paymasters. */
  signer: Address
  /**
   * Contracts with unexpected code replaced (set code) instead of reported: all of them on the embedded node; on a
   * fork only Opstation's own paymasters (`isOwnPaymaster`): any other is the forked network's contract, used as it is.
   */
  repairMismatches: boolean | ((name: string) => boolean)
  log: Logger
}

export type DeployContractsReturnType = {
  addresses: ChainAddresses
  /** Names that could not be deployed on this node. */
  missing: string[]
  /** Names found with code other than expected. */
  mismatched: string[]
  /** Names deployed (or code placed) by this call. */
  deployed: string[]
}

/**
 * The paymasters the service signs for (at Biconomy's addresses and its own v0.7/v0.8/v0.9 ones): on a fork, one of these
 * holding the network's code is replaced, since the dApps' sponsorship depends on it and the change stays local.
 */
export function isOwnPaymaster(name: string): boolean {
  return /^(verifying|token)Paymaster(V07|V08|V09)?$/.test(name)
}

/** The code on chain is what the plan says the address must hold. */
export function holdsPlannedCode(code: Hex, item: PlannedContract): boolean {
  if (item.codeMatch === 'immutablesMasked') return matchesWithImmutablesMasked(code, item.expectedCode)
  // Compared as text rather than by hash: the same answer, without hashing some fifty contracts' code at every start.
  return code.toLowerCase() === item.expectedCode.toLowerCase()
}

async function fundExecutor(p: DeployContractsParameters): Promise<void> {
  const address = p.executor.account.address
  const balance = await p.publicClient.getBalance({ address })
  if (balance >= defaults.executorBalanceWei / 10n) return
  const prefix = p.capabilities.devPrefix
  if (prefix) {
    await requestRpc(p.publicClient, `${prefix}_setBalance`, [
      address,
      numberToHex(defaults.executorBalanceWei),
    ])
    return
  }
  // A dev node without set-balance (geth --dev): the node's own unlocked, prefunded account pays.
  const accounts = await requestRpc<Address[]>(p.publicClient, 'eth_accounts').catch(() => [])
  const from = accounts[0]
  if (!from) {
    p.log.warn(
      { executor: address },
      'cannot fund the executor on this dev chain: no set-balance method, no node account',
    )
    return
  }
  const hash = await requestRpc<Hex>(p.publicClient, 'eth_sendTransaction', [
    { from, to: address, value: numberToHex(defaults.executorBalanceWei / 10n) },
  ])
  await p.publicClient.waitForTransactionReceipt({ hash })
}

async function setCode(p: DeployContractsParameters, address: Address, code: Hex): Promise<void> {
  await requestRpc(p.publicClient, `${p.capabilities.devPrefix}_setCode`, [address, code])
}

async function setStorage(
  p: DeployContractsParameters,
  address: Address,
  slot: Hex,
  value: Hex,
): Promise<void> {
  await requestRpc(p.publicClient, `${p.capabilities.devPrefix}_setStorageAt`, [address, slot, value])
}

async function placeCode(p: DeployContractsParameters, item: PlannedContract): Promise<void> {
  await setCode(p, item.address, item.expectedCode)
  if (item.via === 'setCode') {
    for (const w of item.storage) await setStorage(p, item.address, w.slot, w.value)
  }
}

/** Re-checks the storage words a constructor would have written (owner, signer); repairs them on dev nodes. */
async function verifyStorage(
  p: DeployContractsParameters,
  item: PlannedContract,
  mismatched: string[],
): Promise<void> {
  if (item.via !== 'setCode') return
  for (const w of item.storage.filter((s) => s.verify)) {
    const actual = await p.publicClient.getStorageAt({ address: item.address, slot: w.slot })
    if (actual && BigInt(actual) === BigInt(w.value)) continue
    if (p.capabilities.devPrefix) {
      p.log.warn(
        { contract: item.name, slot: w.label, actual, expected: w.value },
        'repairing contract storage',
      )
      await setStorage(p, item.address, w.slot, w.value)
    } else {
      mismatched.push(`${item.name}.${w.label}`)
    }
  }
}

/**
 * Idempotent deployment: skips what is in place (runtime code equal to the expected code), deploys what is
 * missing where the node allows (CREATE2 deployer always; set code on dev nodes), and reports the rest.
 * On dev chains it also funds the executor and stakes/deposits the paymasters.
 */
export async function deployContracts(p: DeployContractsParameters): Promise<DeployContractsReturnType> {
  const canSetCode = p.capabilities.devPrefix !== null
  const owner = p.executor.account.address
  const plan = buildDeploymentPlan({ canSetCode, owner, signer: p.signer })
  const missing: string[] = []
  const mismatched: string[] = []
  const deployed: string[] = []

  if (p.capabilities.isDev) await fundExecutor(p)

  const deployerCode = await p.publicClient.getCode({ address: canonicalAddresses.create2Deployer })
  let hasDeployer = !!deployerCode && deployerCode !== '0x'
  if (!hasDeployer && canSetCode) {
    await setCode(p, canonicalAddresses.create2Deployer, create2DeployerRuntimeCode)
    deployed.push('create2Deployer')
    hasDeployer = true
  }
  if (!hasDeployer) missing.push('create2Deployer')

  const codes = await Promise.all(plan.map((item) => p.publicClient.getCode({ address: item.address })))
  const pendingTxs: { item: PlannedContract; hash: Hex }[] = []

  for (const [i, item] of plan.entries()) {
    const code = codes[i]
    if (code && code !== '0x') {
      if (holdsPlannedCode(code, item)) {
        await verifyStorage(p, item, mismatched)
        continue
      }
      // Code with masked immutables has no complete form to set: such a contract is reported, not replaced.
      const repair =
        typeof p.repairMismatches === 'function' ? p.repairMismatches(item.name) : p.repairMismatches
      if (repair && canSetCode && item.codeMatch !== 'immutablesMasked') {
        p.log.warn(
          { contract: item.name, address: item.address },
          'contract code differs from the build; replacing it',
        )
        await placeCode(p, item)
        deployed.push(item.name)
      } else {
        p.log.warn(
          { contract: item.name, address: item.address },
          'contract code differs from the expected code',
        )
        mismatched.push(item.name)
      }
      continue
    }
    if (item.via === 'setCode') {
      if (!canSetCode) {
        missing.push(item.name)
        continue
      }
      await placeCode(p, item)
      deployed.push(item.name)
      continue
    }
    if (!hasDeployer) {
      missing.push(item.name)
      continue
    }
    try {
      const hash = await p.submit({
        to: canonicalAddresses.create2Deployer,
        data: concat([item.salt, item.initCode]),
      })
      pendingTxs.push({ item, hash })
    } catch (err) {
      p.log.warn({ err, contract: item.name }, 'CREATE2 deployment failed')
      missing.push(item.name)
    }
  }

  for (const { item, hash } of pendingTxs) {
    const receipt = await p.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    const code = await p.publicClient.getCode({ address: item.address })
    if (receipt.status !== 'success' || !code || code === '0x') {
      p.log.warn({ contract: item.name, hash }, 'CREATE2 deployment did not create the contract')
      missing.push(item.name)
    } else if (!holdsPlannedCode(code, item)) {
      p.log.warn({ contract: item.name }, 'deployed code differs from the expected code')
      mismatched.push(item.name)
    } else {
      deployed.push(item.name)
    }
  }

  const addressOf = (name: string): Address => {
    const item = plan.find((x) => x.name === name)
    if (!item) throw new Error(`not planned: ${name}`)
    return item.address
  }
  const addresses: ChainAddresses = {
    create2Deployer: canonicalAddresses.create2Deployer,
    entryPoint: addressOf('entryPoint'),
    simpleAccountFactory: addressOf('simpleAccountFactory'),
    smartAccountFactory: addressOf('smartAccountFactory'),
    smartAccountImplementation: addressOf('smartAccountImplementation'),
    fallbackHandler: addressOf('fallbackHandler'),
    ecdsaModule: addressOf('ecdsaModule'),
    verifyingPaymaster: addressOf('verifyingPaymaster'),
    tokenPaymaster: addressOf('tokenPaymaster'),
    entryPointV07: addressOf('entryPointV07'),
    simpleAccountFactoryV07: addressOf('simpleAccountFactoryV07'),
    entryPointV08: addressOf('entryPointV08'),
    simpleAccountFactoryV08: addressOf('simpleAccountFactoryV08'),
    simple7702AccountV08: addressOf('simple7702AccountV08'),
    entryPointV09: addressOf('entryPointV09'),
    simple7702AccountV09: addressOf('simple7702AccountV09'),
    verifyingPaymasterV07: addressOf('verifyingPaymasterV07'),
    tokenPaymasterV07: addressOf('tokenPaymasterV07'),
    verifyingPaymasterV08: addressOf('verifyingPaymasterV08'),
    tokenPaymasterV08: addressOf('tokenPaymasterV08'),
    verifyingPaymasterV09: addressOf('verifyingPaymasterV09'),
    tokenPaymasterV09: addressOf('tokenPaymasterV09'),
    tokens: testTokens.map((t) => ({
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      address: addressOf(`token:${t.symbol}`),
    })),
  }

  const unusable = new Set([...missing, ...mismatched])
  if (p.capabilities.isDev && !unusable.has('entryPoint')) {
    await ensureStakesAndDeposits({
      publicClient: p.publicClient,
      submit: p.submit,
      addresses,
      skip: unusable,
      log: p.log,
    })
  }
  const zoo = await deployAccountZoo(p)
  return {
    addresses,
    missing: [...missing, ...zoo.missing],
    mismatched: [...mismatched, ...zoo.mismatched],
    deployed: [...deployed, ...zoo.deployed],
  }
}
