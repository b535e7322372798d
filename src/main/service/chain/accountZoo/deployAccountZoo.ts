import {
  type Address,
  encodeFunctionData,
  type Hex,
  numberToHex,
  type PublicClient,
  parseAbi,
  parseEther,
} from 'viem'
import type { Logger } from '../../log/logger'
import { entryPointAbi } from '../abis/entryPoint'
import { canonicalAddresses, defaults } from '../constants'
import { keccak256OfCode } from '../keccak256'
import { requestRpc } from '../node/requestRpc'
import type { SubmitTransaction } from '../transactions/submitTransaction'
import type { NodeCapabilities } from '../types'
import { getExpectedCodeHash, getZooAddress, getZooDeployerAddress } from './zooContracts'
import {
  type ZooAccountState,
  type ZooDeployment,
  zooDeployments,
  zooEtchedDeployers,
} from './zooDeployments'
import { zooOwnerCalls, zooStakes } from './zooSetup'

export type DeployAccountZooParameters = {
  publicClient: PublicClient
  /** Sends from the executor through its nonce manager. */
  submit: SubmitTransaction
  capabilities: NodeCapabilities
  log: Logger
}

export type DeployAccountZooReturnType = { missing: string[]; mismatched: string[]; deployed: string[] }

type ZooContract = ZooDeployment['contracts'][number]

/**
 * Deploys the smart accounts' contracts (Safe, Kernel, LightAccount, Trust, Etherspot, thirdweb, Nexus, Coinbase,
 * Alchemy's Modular Account) at their canonical addresses by replaying their recorded deployments
 * (`zooDeployments.ts`), idempotently: what is in place with its code hash is kept, what is missing is deployed where
 * the node allows it, the rest is reported. On dev
 * nodes it then recreates the state their operators gave them on mainnet (Kernel's allow-lists, factory stakes).
 */
export async function deployAccountZoo(p: DeployAccountZooParameters): Promise<DeployAccountZooReturnType> {
  const chainId = p.publicClient.chain?.id ?? (await p.publicClient.getChainId())
  const missing: string[] = []
  const mismatched: string[] = []
  const deployed: string[] = []
  const unusableDeployers = await ensureDeployers(p, deployed, missing)

  const contracts = zooDeployments.flatMap((d) => d.contracts)
  const codes = await Promise.all(contracts.map((c) => p.publicClient.getCode({ address: c.address })))
  const codeOf = new Map(contracts.map((c, i) => [c.name, codes[i]]))

  const pending: { deployment: ZooDeployment; hash: Hex }[] = []
  for (const deployment of zooDeployments) {
    const absent = deployment.contracts.filter((c) => !hasCode(codeOf.get(c.name)))
    for (const contract of deployment.contracts.filter((c) => hasCode(codeOf.get(c.name)))) {
      if (!holdsZooCode(codeOf.get(contract.name)!, contract, chainId)) {
        p.log.warn(
          { contract: contract.name, address: contract.address },
          'contract code differs from the expected code',
        )
        mismatched.push(contract.name)
      }
    }
    if (absent.length === 0) continue
    if (absent.length < deployment.contracts.length || unusableDeployers.has(deployment.deployer)) {
      // Partly there (a constructor's contract without its creator cannot be made), or no deployer.
      missing.push(...absent.map((c) => c.name))
      continue
    }
    const state = deployment.state[String(chainId)] ?? deployment.state['*']
    if (p.capabilities.devPrefix && state) {
      // A dev node gets the state the deployment leaves, set directly: the same code, nonces and storage, without
      // megabytes of deployment transactions in the chain's history (and in every state dump).
      await placeState(p, state)
      deployed.push(
        ...verifyCreated(deployment, await readCodes(p, deployment), chainId, p.log, missing, mismatched),
      )
      continue
    }
    try {
      const hash = await p.submit({
        to: getZooDeployerAddress(deployment.deployer),
        data: deployment.data,
        gas: 15_000_000n,
      })
      pending.push({ deployment, hash })
    } catch (err) {
      p.log.warn({ err, source: deployment.source }, 'account contract deployment failed')
      missing.push(...absent.map((c) => c.name))
    }
  }
  for (const { deployment, hash } of pending) {
    const receipt = await p.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    const codes = receipt.status === 'success' ? await readCodes(p, deployment) : []
    deployed.push(...verifyCreated(deployment, codes, chainId, p.log, missing, mismatched))
  }

  const unusable = new Set([...missing, ...mismatched])
  if (p.capabilities.devPrefix) {
    await runOwnerCalls(p, deployed, unusable)
    await ensureFactoryStakes(p, unusable)
  } else {
    // Without impersonation the operators' set-up cannot be recreated: say which part is missing.
    for (const call of zooOwnerCalls.filter((c) => c.after.some((name) => deployed.includes(name))))
      if (!missing.includes(`${call.to} (owner set-up)`)) missing.push(`${call.to} (owner set-up)`)
    for (const { factory } of zooStakes.filter((s) => deployed.includes(s.factory)))
      missing.push(`${factory} (stake)`)
  }
  return { missing, mismatched, deployed }
}

const hasCode = (code: Hex | undefined): boolean => !!code && code !== '0x'

const readCodes = (p: DeployAccountZooParameters, deployment: ZooDeployment) =>
  Promise.all(deployment.contracts.map((c) => p.publicClient.getCode({ address: c.address })))

/** Sorts a deployment's contracts by what is now at their address; returns the names deployed as recorded. */
function verifyCreated(
  deployment: ZooDeployment,
  codes: (Hex | undefined)[],
  chainId: number,
  log: Logger,
  missing: string[],
  mismatched: string[],
): string[] {
  const created: string[] = []
  for (const [i, contract] of deployment.contracts.entries()) {
    const code = codes[i]
    if (!hasCode(code)) {
      log.warn({ contract: contract.name }, 'deployment did not create the contract')
      missing.push(contract.name)
    } else if (!holdsZooCode(code!, contract, chainId)) {
      log.warn({ contract: contract.name }, 'deployed code differs from the expected code')
      mismatched.push(contract.name)
    } else {
      created.push(contract.name)
    }
  }
  return created
}

/** Sets the recorded code, nonce and storage of what a deployment creates or writes (dev nodes). */
async function placeState(p: DeployAccountZooParameters, state: readonly ZooAccountState[]): Promise<void> {
  const prefix = p.capabilities.devPrefix
  await Promise.all(
    state.flatMap((account) => [
      ...(account.code
        ? [requestRpc(p.publicClient, `${prefix}_setCode`, [account.address, account.code])]
        : []),
      ...(account.nonce !== undefined
        ? [requestRpc(p.publicClient, `${prefix}_setNonce`, [account.address, numberToHex(account.nonce)])]
        : []),
      ...account.storage.map(([slot, value]) =>
        requestRpc(p.publicClient, `${prefix}_setStorageAt`, [account.address, slot, value]),
      ),
    ]),
  )
}

/** The code is the recorded one (by hash); a contract whose hash for this chain id is unknown only has to exist. */
export function holdsZooCode(code: Hex, contract: ZooContract, chainId: number): boolean {
  const expected = getExpectedCodeHash(contract, chainId)
  return expected === null || keccak256OfCode(code) === expected
}

/** Sets the code of the singleton deployers a fresh node lacks (dev nodes); returns the ones that cannot be used. */
async function ensureDeployers(
  p: DeployAccountZooParameters,
  deployed: string[],
  missing: string[],
): Promise<Set<string>> {
  const unusable = new Set<string>()
  // deployContracts places the CREATE2 deployer where it can; without it its deployments cannot run.
  if (!hasCode(await p.publicClient.getCode({ address: canonicalAddresses.create2Deployer })))
    unusable.add('create2Deployer')
  for (const deployer of zooEtchedDeployers) {
    const code = await p.publicClient.getCode({ address: deployer.address })
    if (hasCode(code)) {
      if (code!.toLowerCase() !== deployer.code.toLowerCase()) {
        unusable.add(deployer.name)
        p.log.warn(
          { deployer: deployer.name },
          'a deployer holds unexpected code; its contracts are not deployed',
        )
      }
      continue
    }
    if (!p.capabilities.devPrefix) {
      unusable.add(deployer.name)
      missing.push(deployer.name)
      continue
    }
    await requestRpc(p.publicClient, `${p.capabilities.devPrefix}_setCode`, [deployer.address, deployer.code])
    deployed.push(deployer.name)
  }
  return unusable
}

/** Sends a transaction as `from` (impersonated on the dev node, given gas money) and waits for it. */
async function sendAs(
  p: DeployAccountZooParameters,
  from: Address,
  tx: { to: Address; data?: Hex; value?: bigint },
) {
  const prefix = p.capabilities.devPrefix
  await requestRpc(p.publicClient, `${prefix}_setBalance`, [
    from,
    numberToHex(parseEther('100') + (tx.value ?? 0n)),
  ])
  await requestRpc(p.publicClient, `${prefix}_impersonateAccount`, [from])
  try {
    const hash = await requestRpc<Hex>(p.publicClient, 'eth_sendTransaction', [
      { from, to: tx.to, data: tx.data ?? '0x', value: numberToHex(tx.value ?? 0n) },
    ])
    const receipt = await p.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (receipt.status !== 'success') throw new Error(`transaction from ${from} to ${tx.to} reverted`)
  } finally {
    await requestRpc(p.publicClient, `${prefix}_stopImpersonatingAccount`, [from])
  }
}

/** The owners' set-up calls for contracts this start deployed (later starts find that state on the chain). */
async function runOwnerCalls(p: DeployAccountZooParameters, deployed: string[], unusable: Set<string>) {
  for (const call of zooOwnerCalls) {
    if (!call.after.some((name) => deployed.includes(name))) continue
    if (unusable.has(call.to) || call.after.some((name) => unusable.has(name))) continue
    await sendAs(p, call.from, { to: getZooAddress(call.to), data: call.data }).catch((err) =>
      p.log.warn({ err, to: call.to }, 'account contract set-up failed'),
    )
  }
}

/** Stakes each factory its operator stakes on mainnet, as the factory itself (impersonated). */
async function ensureFactoryStakes(p: DeployAccountZooParameters, unusable: Set<string>) {
  for (const { factory, entryPoint } of zooStakes) {
    if (unusable.has(factory)) continue
    const address = getZooAddress(factory)
    const info = await p.publicClient
      .readContract({
        address: entryPoint,
        abi: entryPointAbi,
        functionName: 'getDepositInfo',
        args: [address],
      })
      .catch(() => null)
    if (!info || (info.staked && info.unstakeDelaySec >= defaults.unstakeDelaySec)) continue
    await sendAs(p, address, {
      to: entryPoint,
      value: defaults.stakeWei,
      data: encodeAddStake(defaults.unstakeDelaySec),
    }).catch((err) => p.log.warn({ err, factory }, 'factory stake failed'))
  }
}

/** Same function on EntryPoint v0.6, v0.7 and v0.8. */
const stakeManagerAbi = parseAbi(['function addStake(uint32 unstakeDelaySec) payable'])

function encodeAddStake(unstakeDelaySec: number): Hex {
  return encodeFunctionData({ abi: stakeManagerAbi, functionName: 'addStake', args: [unstakeDelaySec] })
}
