import {
  toKernelSmartAccount,
  toLightSmartAccount,
  toNexusSmartAccount,
  toSafeSmartAccount,
  toSimpleSmartAccount,
} from 'permissionless/accounts'
import { encode7579Calls } from 'permissionless/utils'
import {
  type Address,
  concat,
  createClient,
  custom,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  parseAbi,
  parseAbiParameters,
  toFunctionSelector,
} from 'viem'
import {
  entryPoint06Address,
  entryPoint07Address,
  entryPoint08Address,
  toCoinbaseSmartAccount,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { anvil } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { ACCOUNT_FUNCTIONS, decodeCallData } from '../../../src/main/service/policy/decodeCallData'

const account = parseAbi([
  'function execute_ncC(address dest, uint256 value, bytes func)',
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch_y6U(address[] dest, uint256[] value, bytes[] func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
])
const simpleAccount = parseAbi(['function executeBatch(address[] dest, bytes[] func)'])
const erc20 = parseAbi([
  'function transfer(address to, uint256 amount)',
  'function approve(address, uint256)',
])
const token = '0x752fAc4b6F12E83c8be5571d2CDE2c00aEe1855C'
const other = '0x47DFa9a0C1E2711269876356b5CdC180450d6776'
const transfer = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [other, 5n] })

describe('decodeCallData', () => {
  it('knows the selectors of biconomy-protocol.md section 5 and SimpleAccount', () => {
    for (const [selector, fn] of Object.entries(ACCOUNT_FUNCTIONS)) {
      expect(toFunctionSelector(fn.name)).toBe(selector)
    }
    expect(Object.keys(ACCOUNT_FUNCTIONS)).toEqual(
      expect.arrayContaining(['0x0000189a', '0xb61d27f6', '0x00004680', '0x47e1da2a', '0x18dfb3c7']),
    )
  })

  it('decodes the SDK single call (execute_ncC) into its target, value and method selector', () => {
    const callData = encodeFunctionData({
      abi: account,
      functionName: 'execute_ncC',
      args: [token, 0n, transfer],
    })
    expect(decodeCallData(callData)).toEqual({
      kind: 'calls',
      accountFunction: 'execute_ncC(address,uint256,bytes)',
      calls: [{ to: token, value: 0n, data: transfer, selector: '0xa9059cbb' }],
    })
  })

  it('reads execute(address,uint256,bytes) off its layout exactly as the ABI decoder does, for any data length and value', () => {
    for (const data of [
      '0x',
      '0xa9059cbb',
      transfer,
      `0x${'ab'.repeat(33)}`,
      `0x${'00'.repeat(64)}`,
    ] as const) {
      for (const value of [0n, 1n, 2n ** 255n + 7n]) {
        const callData = encodeFunctionData({
          abi: account,
          functionName: 'execute',
          args: [other, value, data],
        })
        expect(decodeCallData(callData)).toEqual({
          kind: 'calls',
          accountFunction: 'execute(address,uint256,bytes)',
          calls: [{ to: other, value, data, selector: data.length >= 10 ? data.slice(0, 10) : null }],
        })
      }
    }
    // A non-standard offset still decodes (through the ABI decoder).
    const shifted =
      `0xb61d27f6${encodeAbiParameters(parseAbiParameters('address, uint256, uint256, uint256, uint256, bytes4'), [other, 3n, 0x80n, 0n, 4n, '0xdeadbeef']).slice(2)}` as const
    expect(decodeCallData(shifted)).toMatchObject({
      kind: 'calls',
      calls: [{ to: other, value: 3n, data: '0xdeadbeef' }],
    })
    // A length past the end is reported, not read out of bounds.
    const cut = encodeFunctionData({
      abi: account,
      functionName: 'execute',
      args: [other, 0n, transfer],
    }).slice(0, -64) as `0x${string}`
    expect(decodeCallData(cut)).toMatchObject({ kind: 'unknown' })
  })

  it('decodes batches (executeBatch_y6U, executeBatch, SimpleAccount executeBatch) call by call', () => {
    const approve = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [other, 1n] })
    const batch = encodeFunctionData({
      abi: account,
      functionName: 'executeBatch_y6U',
      args: [
        [token, other],
        [0n, 3n],
        [approve, '0x'],
      ],
    })
    const decoded = decodeCallData(batch)
    expect(decoded.kind === 'calls' && decoded.calls.map((c) => [c.to, c.value, c.selector])).toEqual([
      [token, 0n, '0x095ea7b3'],
      [other, 3n, null],
    ])
    const named = decodeCallData(
      encodeFunctionData({ abi: account, functionName: 'executeBatch', args: [[token], [0n], [transfer]] }),
    )
    expect(named.kind === 'calls' && named.calls[0]?.selector).toBe('0xa9059cbb')
    const simple = decodeCallData(
      encodeFunctionData({
        abi: simpleAccount,
        functionName: 'executeBatch',
        args: [
          [token, token],
          [transfer, transfer],
        ],
      }),
    )
    expect(simple.kind === 'calls' && simple.calls.length).toBe(2)
  })

  it('tells a deploy-only op (initCode, empty callData) from an empty call on a deployed account', () => {
    expect(decodeCallData('0x', '0x000000a56Aaca3e9a4C479ea6b6CD0DbcB6634F5df20ffbc')).toEqual({
      kind: 'deployOnly',
    })
    expect(decodeCallData('0x', '0x')).toEqual({ kind: 'empty' })
  })

  it('reports an unknown selector and arguments that do not decode, without throwing', () => {
    expect(decodeCallData('0x12345678')).toMatchObject({ kind: 'unknown', selector: '0x12345678' })
    expect(decodeCallData('0x0000189a1234')).toMatchObject({ kind: 'unknown', selector: '0x0000189a' })
    expect(decodeCallData('0x00')).toMatchObject({ kind: 'unknown', selector: null })
    const mismatched =
      `0x00004680${encodeAbiParameters(parseAbiParameters('address[], uint256[], bytes[]'), [[token, other], [0n, 0n], ['0x']]).slice(2)}` as const
    expect(decodeCallData(mismatched)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('lengths differ'),
    })
  })
})

// The accounts users run, built offline: an explicit address spares the constructors their RPC calls, and the
// client answers only eth_getCode (Safe7579 asks whether the Safe is deployed) and refuses anything else.
const client = createClient({
  chain: anvil,
  transport: custom({
    async request({ method }) {
      if (method === 'eth_getCode') return '0x6001'
      throw new Error(`offline test client: ${method} is not served`)
    },
  }),
})
const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const sender = '0x9A676e781A523b5d0C0e43731313A708CB607508'
const approve = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [other, 9n] })
const call = { to: token, value: 3n, data: transfer } as const
const batch = [
  { to: token, value: 1n, data: transfer },
  { to: other, value: 7n, data: approve },
] as const
type Call = { to: Address; value: bigint; data: Hex }
const toExpected = (c: Call) => ({ ...c, selector: c.data.slice(0, 10) })

const SAFE_EXECUTE = 'executeUserOpWithErrorString(address,uint256,bytes,uint8)'
const ERC7579_EXECUTE = 'execute(bytes32,bytes)'
const accounts: {
  label: string
  create: () => Promise<{ encodeCalls: (calls: readonly Call[]) => Promise<Hex> }>
  single: string
  batch: string
}[] = [
  {
    label: 'SimpleAccount v0.7 (permissionless)',
    create: () => toSimpleSmartAccount({ client, owner, address: sender }),
    single: 'execute(address,uint256,bytes)',
    batch: 'executeBatch(address[],uint256[],bytes[])',
  },
  {
    label: 'SimpleAccount v0.8 (permissionless)',
    create: () =>
      toSimpleSmartAccount({
        client,
        owner,
        address: sender,
        entryPoint: { address: entryPoint08Address, version: '0.8' },
      }),
    single: 'execute(address,uint256,bytes)',
    batch: 'executeBatch((address,uint256,bytes)[])',
  },
  {
    label: 'Simple7702Account v0.8 (viem)',
    create: () => toSimple7702SmartAccount({ client, owner }),
    single: 'execute(address,uint256,bytes)',
    batch: 'executeBatch((address,uint256,bytes)[])',
  },
  {
    label: 'Safe 1.4.1 with Safe4337Module, v0.7 (permissionless; a batch is a MultiSend delegatecall)',
    create: () =>
      toSafeSmartAccount({
        client,
        owners: [owner],
        version: '1.4.1',
        address: sender,
        entryPoint: { address: entryPoint07Address, version: '0.7' },
      }),
    single: SAFE_EXECUTE,
    batch: SAFE_EXECUTE,
  },
  {
    label: 'Safe7579, deployed (permissionless)',
    create: () =>
      toSafeSmartAccount({
        client,
        owners: [owner],
        version: '1.4.1',
        address: sender,
        entryPoint: { address: entryPoint07Address, version: '0.7' },
        safe4337ModuleAddress: '0x7579EE8307284F293B1927136486880611F20002',
        erc7579LaunchpadAddress: '0x7579011aB74c46090561ea277Ba79D510c6C00ff',
        attesters: ['0x000000333034E9f539ce08819E12c1b8Cb29084d'],
        attestersThreshold: 1,
      }),
    single: ERC7579_EXECUTE,
    batch: ERC7579_EXECUTE,
  },
  {
    label: 'Kernel v2 0.2.4, v0.6 (permissionless)',
    create: () =>
      toKernelSmartAccount({
        client,
        owners: [owner],
        version: '0.2.4',
        address: sender,
        entryPoint: { address: entryPoint06Address, version: '0.6' },
      }),
    single: 'execute(address,uint256,bytes,uint8)',
    batch: 'executeBatch((address,uint256,bytes)[])',
  },
  {
    label: 'Kernel v3 0.3.1, ERC-7579 (permissionless)',
    create: () => toKernelSmartAccount({ client, owners: [owner], version: '0.3.1', address: sender }),
    single: ERC7579_EXECUTE,
    batch: ERC7579_EXECUTE,
  },
  {
    label: 'Nexus 1.0.0, ERC-7579 (permissionless)',
    create: () => toNexusSmartAccount({ client, owners: [owner], version: '1.0.0', address: sender }),
    single: ERC7579_EXECUTE,
    batch: ERC7579_EXECUTE,
  },
  {
    label: 'LightAccount v1.1.0, v0.6 (permissionless)',
    create: () =>
      toLightSmartAccount({
        client,
        owner,
        version: '1.1.0',
        address: sender,
        entryPoint: { address: entryPoint06Address, version: '0.6' },
      }),
    single: 'execute(address,uint256,bytes)',
    batch: 'executeBatch(address[],uint256[],bytes[])',
  },
  {
    label: 'LightAccount v2.0.0, v0.7 (permissionless)',
    create: () => toLightSmartAccount({ client, owner, version: '2.0.0', address: sender }),
    single: 'execute(address,uint256,bytes)',
    batch: 'executeBatch(address[],uint256[],bytes[])',
  },
  {
    label: 'Coinbase Smart Wallet 1.1 (viem)',
    create: () => toCoinbaseSmartAccount({ client, owners: [owner], version: '1.1', address: sender }),
    single: 'execute(address,uint256,bytes)',
    batch: 'executeBatch((address,uint256,bytes)[])',
  },
]

const safeModule = parseAbi([
  'function executeUserOp(address to, uint256 value, bytes data, uint8 operation)',
  'function executeUserOpWithErrorString(address to, uint256 value, bytes data, uint8 operation)',
])
const multiSend = parseAbi(['function multiSend(bytes transactions)'])
const kernelV2 = parseAbi(['function execute(address to, uint256 value, bytes data, uint8 operation)'])
const erc7579 = parseAbi(['function execute(bytes32 mode, bytes executionCalldata)'])
const multiSendCallOnly141 = '0x9641d764fc13c8B624c04430C7356C1C7C8102e2'
const packTransaction = (operation: number, to: Address, value: bigint, data: Hex) =>
  encodePacked(
    ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
    [operation, to, value, BigInt((data.length - 2) / 2), data],
  )
const safeDelegatecall = (to: Address, data: Hex) =>
  encodeFunctionData({
    abi: safeModule,
    functionName: 'executeUserOpWithErrorString',
    args: [to, 0n, data, 1],
  })
const multiSendOf = (transactions: Hex) =>
  encodeFunctionData({ abi: multiSend, functionName: 'multiSend', args: [transactions] })
const mode7579 = (callType: number, execType = 0) =>
  `0x${callType.toString(16).padStart(2, '0')}${execType.toString(16).padStart(2, '0')}${'00'.repeat(30)}` as Hex

describe('decodeCallData on the callData of the accounts users run (EntryPoint v0.6–v0.8)', () => {
  it('knows their selectors', () => {
    expect(Object.keys(ACCOUNT_FUNCTIONS)).toEqual(
      expect.arrayContaining([
        '0x34fcd5be', // executeBatch((address,uint256,bytes)[])
        '0x51945447', // Kernel v2 execute(address,uint256,bytes,uint8)
        '0xe9ae5c53', // ERC-7579 execute(bytes32,bytes)
        '0x7bb37428', // Safe4337Module executeUserOp(address,uint256,bytes,uint8)
        '0x541d63c8', // Safe4337Module executeUserOpWithErrorString(address,uint256,bytes,uint8)
        '0x8dd7712f', // IAccountExecute executeUserOp(PackedUserOperation,bytes32)
      ]),
    )
  })

  it.each(accounts)('$label: one call and a batch of two decode to exactly those calls', async (account) => {
    const smartAccount = await account.create()
    expect(decodeCallData(await smartAccount.encodeCalls([call]))).toEqual({
      kind: 'calls',
      accountFunction: account.single,
      calls: [toExpected(call)],
    })
    expect(decodeCallData(await smartAccount.encodeCalls(batch))).toEqual({
      kind: 'calls',
      accountFunction: account.batch,
      calls: batch.map(toExpected),
    })
  })

  it.each(accounts)('$label: a truncated batch is unknown, with the reason', async (account) => {
    const encoded = await (await account.create()).encodeCalls(batch)
    const decoded = decodeCallData(encoded.slice(0, -128) as Hex)
    expect(decoded).toMatchObject({
      kind: 'unknown',
      selector: encoded.slice(0, 10),
      reason: expect.stringContaining(`${account.batch} arguments do not decode (`),
    })
  })

  it('refuses an ERC-7579 delegatecall, staticcall or unknown call type, and an unknown exec type, naming it', () => {
    const delegatecall = encode7579Calls({
      mode: { type: 'delegatecall', revertOnError: false, selector: '0x', context: '0x' },
      callData: [{ to: other, value: 0n, data: transfer }],
    })
    expect(decodeCallData(delegatecall)).toEqual({
      kind: 'unknown',
      selector: '0xe9ae5c53',
      reason:
        'execute(bytes32,bytes): ERC-7579 call type 0xff (delegatecall) is not decoded; only single (0x00) and batch (0x01) calls are',
    })
    const single = encodePacked(['address', 'uint256', 'bytes'], [token, 0n, transfer])
    const withMode = (mode: Hex) =>
      decodeCallData(encodeFunctionData({ abi: erc7579, functionName: 'execute', args: [mode, single] }))
    expect(withMode(mode7579(0xfe))).toMatchObject({ reason: expect.stringContaining('0xfe (staticcall)') })
    expect(withMode(mode7579(0x02))).toMatchObject({
      reason: expect.stringContaining('0x02 (unknown call type)'),
    })
    expect(withMode(mode7579(0x00, 0x02))).toMatchObject({
      kind: 'unknown',
      reason: 'execute(bytes32,bytes): ERC-7579 exec type 0x02 is neither default (0x00) nor try (0x01)',
    })
    // Try mode (0x01) makes the same calls.
    expect(withMode(mode7579(0x00, 0x01))).toMatchObject({
      kind: 'calls',
      calls: [{ to: token, data: transfer }],
    })
    // A single execution shorter than its target and value.
    expect(
      decodeCallData(
        encodeFunctionData({
          abi: erc7579,
          functionName: 'execute',
          args: [mode7579(0), single.slice(0, 82) as Hex],
        }),
      ),
    ).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('single execution is 40 bytes') })
  })

  it('decodes a Safe operation that carries an onchain identifier after its arguments', async () => {
    const safe = await toSafeSmartAccount({
      client,
      owners: [owner],
      version: '1.4.1',
      address: sender,
      entryPoint: { address: entryPoint07Address, version: '0.7' },
      onchainIdentifier: '0x5afe000000000000000000000000000000000000000000000000000000000001',
    })
    const encoded = await safe.encodeCalls(batch)
    expect(encoded.endsWith('5afe000000000000000000000000000000000000000000000000000000000001')).toBe(true)
    expect(decodeCallData(encoded)).toEqual({
      kind: 'calls',
      accountFunction: SAFE_EXECUTE,
      calls: batch.map(toExpected),
    })
  })

  it('refuses a Safe delegatecall other than a MultiSend batch, and delegatecalls inside the batch', () => {
    // Any other target or function.
    expect(decodeCallData(safeDelegatecall(other, transfer))).toEqual({
      kind: 'unknown',
      selector: '0x541d63c8',
      reason: `${SAFE_EXECUTE}: delegatecall (operation 1) to ${other} with selector 0xa9059cbb; only a MultiSend multiSend(bytes) batch is decoded`,
    })
    const transactions = concat([
      packTransaction(0, token, 1n, transfer),
      packTransaction(0, other, 7n, approve),
    ])
    // multiSend(bytes) at an address that is no Safe MultiSend deployment: its code could do anything.
    expect(decodeCallData(safeDelegatecall(other, multiSendOf(transactions)))).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining(`to ${other}, which is not a Safe MultiSend deployment`),
    })
    // The same batch through MultiSendCallOnly v1.4.1 and through executeUserOp decodes.
    const viaExecuteUserOp = encodeFunctionData({
      abi: safeModule,
      functionName: 'executeUserOp',
      args: [multiSendCallOnly141, 0n, multiSendOf(transactions), 1],
    })
    expect(decodeCallData(viaExecuteUserOp)).toEqual({
      kind: 'calls',
      accountFunction: 'executeUserOp(address,uint256,bytes,uint8)',
      calls: batch.map(toExpected),
    })
    // A delegatecall inside the batch, a zero target, an operation Safe does not have.
    const inner = (operation: number, to: Address = token) =>
      decodeCallData(
        safeDelegatecall(
          multiSendCallOnly141,
          multiSendOf(
            concat([packTransaction(0, token, 0n, transfer), packTransaction(operation, to, 0n, approve)]),
          ),
        ),
      )
    expect(inner(1)).toMatchObject({
      kind: 'unknown',
      reason: `${SAFE_EXECUTE}: MultiSend transaction 1 is a delegatecall (operation 1); only calls (operation 0) are decoded`,
    })
    expect(inner(0, '0x0000000000000000000000000000000000000000')).toMatchObject({
      reason: expect.stringContaining('MultiSend transaction 1 targets address 0'),
    })
    expect(decodeCallData(safeDelegatecall(other, '0x'))).toMatchObject({
      reason: expect.stringContaining('with no selector'),
    })
    expect(
      decodeCallData(
        encodeFunctionData({
          abi: safeModule,
          functionName: 'executeUserOp',
          args: [token, 0n, transfer, 2],
        }),
      ),
    ).toMatchObject({
      reason: `executeUserOp(address,uint256,bytes,uint8): operation 2 is neither a call (0) nor a delegatecall (1)`,
    })
  })

  it('reports MultiSend transactions that do not fill the bytes exactly', () => {
    const transactions = concat([
      packTransaction(0, token, 1n, transfer),
      packTransaction(0, other, 7n, approve),
    ])
    expect(
      decodeCallData(safeDelegatecall(multiSendCallOnly141, multiSendOf(transactions.slice(0, -20) as Hex))),
    ).toMatchObject({
      kind: 'unknown',
      reason: `${SAFE_EXECUTE} arguments do not decode (MultiSend transaction 1 claims 68 bytes of data, 58 are left)`,
    })
    expect(
      decodeCallData(
        safeDelegatecall(multiSendCallOnly141, multiSendOf(concat([transactions, '0x00112233']))),
      ),
    ).toMatchObject({
      kind: 'unknown',
      reason: `${SAFE_EXECUTE} arguments do not decode (MultiSend transaction 2 is cut short: 4 bytes left, its header takes 85)`,
    })
  })

  it('refuses a Kernel v2 delegatecall', () => {
    expect(
      decodeCallData(
        encodeFunctionData({ abi: kernelV2, functionName: 'execute', args: [other, 0n, transfer, 1] }),
      ),
    ).toMatchObject({
      kind: 'unknown',
      selector: '0x51945447',
      reason: expect.stringContaining('operation 1 is a delegatecall'),
    })
  })

  it('decodes what the executeUserOp wrapper (Kernel v3, Nexus) wraps, one level deep', async () => {
    const nexus = await toNexusSmartAccount({ client, owners: [owner], version: '1.0.0', address: sender })
    const wrapped = concat(['0x8dd7712f', await nexus.encodeCalls(batch)])
    expect(decodeCallData(wrapped)).toEqual({
      kind: 'calls',
      accountFunction:
        'executeUserOp((address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes),bytes32)',
      calls: batch.map(toExpected),
    })
    expect(decodeCallData(concat(['0x8dd7712f', wrapped]))).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('executeUserOp inside executeUserOp is not decoded'),
    })
    expect(decodeCallData('0x8dd7712f')).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('it wraps empty callData'),
    })
    expect(decodeCallData(concat(['0x8dd7712f', '0x12345678']))).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('selector 0x12345678 is not an account execute function'),
    })
  })
})
