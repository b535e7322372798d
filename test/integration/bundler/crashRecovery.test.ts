import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import { createPublicClient, defineChain, type Hex, http } from 'viem'
import { createBundlerClient, entryPoint06Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { childrenOf } from '../../helpers/childrenOf'
import { rpcOverHttp as rpc } from '../../helpers/rpcOverHttp'
import { readSavedChainHead } from '../../helpers/savedChainHead'
import { spawnCli } from '../../helpers/spawnCli'
import { seedWithChainTemplate, startTestService } from '../../helpers/startTestService'
import { callBundler, randomAddress, waitFor } from './bundlerTestKit'
import { deployRuleTestAccount, toRpcOperation } from './ruleTestAccount'

describe('UserOperation records across a crash (records reach the disk in batches)', () => {
  it('records operations mined while their records were not on disk from the chain when the bundler starts', async () => {
    let service = await startTestService({ unsafe: true })
    const { dataDir } = service
    try {
      const account = await deployRuleTestAccount(service)
      const hashes: Hex[] = []
      for (let nonce = 0n; nonce < 3n; nonce++) {
        const op = await account.buildOperation({ nonce, to: randomAddress() })
        const sent = await callBundler(service, 'eth_sendUserOperation', [
          toRpcOperation(op),
          service.chain!.addresses.entryPoint,
        ])
        hashes.push(sent.body.result)
        await waitFor(
          async () =>
            (await callBundler(service, 'eth_getUserOperationReceipt', [sent.body.result])).body.result,
        )
      }
      const before = await Promise.all(
        hashes.map(async (h) => (await callBundler(service, 'eth_getUserOperationReceipt', [h])).body.result),
      )
      await service.close()

      // As if the service had died before writing them: the last record is gone, the one before it still says
      // submitted (its bundle mined a moment later).
      const file = path.join(dataDir, 'opstation.json')
      const doc = JSON.parse(await readFile(file, 'utf8'))
      doc.userOperations = doc.userOperations.filter(
        (r: { userOpHash: string }) => r.userOpHash !== hashes[2],
      )
      const submitted = doc.userOperations.find((r: { userOpHash: string }) => r.userOpHash === hashes[1])
      Object.assign(submitted, { status: 'submitted', blockNumber: null, blockHash: null, logRange: null })
      await writeFile(file, JSON.stringify(doc))

      service = Object.assign(await startTestService({ dataDir, unsafe: true }), { dataDir })
      for (const [i, hash] of hashes.entries()) {
        const receipt = await waitFor(
          async () => (await callBundler(service, 'eth_getUserOperationReceipt', [hash])).body.result,
        )
        expect(receipt.receipt.transactionHash).toBe(before[i].receipt.transactionHash)
        expect(receipt.actualGasUsed).toBe(before[i].actualGasUsed)
        expect(receipt.success).toBe(true)
      }
      const record = (await callBundler(service, 'eth_getUserOperationByHash', [hashes[2]])).body.result
      expect(record.transactionHash).toBe(before[2].receipt.transactionHash)
      expect(record.sender.toLowerCase()).toBe(account.address.toLowerCase())
    } finally {
      await service.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('after kill -9 of the service and its anvil, every acknowledged and mined operation still has its receipt', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-crash-'))
    await seedWithChainTemplate(dataDir)
    const first = await spawnCli(['--port', '0', '--data-dir', dataDir, '--unsafe'])
    const { bundlerUrl, rpcUrl } = first.ready as { bundlerUrl: string; rpcUrl: string }
    // Acknowledged (a hash came back) and mined (its receipt came back).
    const mined: { hash: Hex; transactionHash: Hex }[] = []
    let lastBlock = 0n
    try {
      const chain = defineChain({
        id: Number(BigInt(await rpc(rpcUrl, 'eth_chainId', []))),
        name: 'crash test',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
      })
      const client = createPublicClient({ chain, transport: http(rpcUrl) })
      // Built one after another: a Promise.all over async factories of bundler clients costs the type checker
      // minutes (it infers Awaited<> of viem's deep client type through the tuple overloads).
      const bundlers = []
      for (let i = 0; i < 3; i++) {
        const account = await toSimpleSmartAccount({
          client,
          owner: privateKeyToAccount(generatePrivateKey()),
          entryPoint: { address: entryPoint06Address, version: '0.6' },
        })
        await rpc(rpcUrl, 'anvil_setBalance', [account.address, `0x${(10n ** 20n).toString(16)}`])
        bundlers.push(
          createBundlerClient({ client, account, transport: http(bundlerUrl), pollingInterval: 20 }),
        )
      }
      for (let round = 0; round < 3; round++) {
        await Promise.all(
          bundlers.map(async (bundler) => {
            const hash = await bundler.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] })
            const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: 20_000 })
            mined.push({ hash, transactionHash: receipt.receipt.transactionHash })
            lastBlock = receipt.receipt.blockNumber > lastBlock ? receipt.receipt.blockNumber : lastBlock
          }),
        )
      }
      // The chain keeps its blocks (the embedded anvil's state is saved once the chain goes quiet); the batch of
      // records written every second may not have reached opstation.json yet when both processes die. Wait for a
      // saved state that holds the last block (a dump under way when it was mined may be written after it, without it).
      const statePath = path.join(dataDir, 'chain', 'anvil-state.json')
      await waitFor(
        async () => ((await readSavedChainHead(statePath)) >= lastBlock ? true : null),
        // The saver waits 20 times as long as its last dump took before the next: on a loaded machine, seconds.
        45_000,
      )
      const anvils = childrenOf(first.child.pid as number)
      first.child.kill('SIGKILL')
      for (const pid of anvils) process.kill(pid, 'SIGKILL')
      await first.exited
    } finally {
      // Whatever happened above, neither process outlives the test.
      if (first.child.exitCode === null && first.child.signalCode === null) {
        const anvils = childrenOf(first.child.pid as number)
        first.child.kill('SIGKILL')
        for (const pid of anvils) process.kill(pid, 'SIGKILL')
      }
    }

    const second = await spawnCli(['--port', '0', '--data-dir', dataDir, '--unsafe'])
    try {
      const url = (second.ready as { bundlerUrl: string }).bundlerUrl
      for (const { hash, transactionHash } of mined) {
        const receipt = await waitFor(() => rpc(url, 'eth_getUserOperationReceipt', [hash]), 10_000)
        expect(receipt.receipt.transactionHash).toBe(transactionHash)
        expect(receipt.success).toBe(true)
      }
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
      await rm(dataDir, { recursive: true, force: true })
    }
    // Two service starts, three rounds of bundles and a saved state to wait for: more than the default minute on a
    // loaded machine.
  }, 120_000)
})
