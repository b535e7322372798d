import { z } from 'zod'
import { BLOCK_WINDOW_VERSIONS_NOTE, MAX_WINDOW_BLOCK, MIN_VALID_FOR_BLOCKS } from '../../../shared/api/dapps'
import { ENTRY_POINT_VERSIONS } from '../../../shared/entryPointVersions'
import { InvalidInputError } from '../errors'
import { checkUsdPrice } from '../paymaster/tokenPrices'
import { isHttpUrl } from '../schemas/isHttpUrl'
import { assertMethodsInAbi, parseContractAbi } from '../schemas/parseContractAbi'

/**
 * The setup file (`opstation serve --setup setup.json`, `startOpstation({ setup })`, the console's import): what a
 * service should hold, by name. Every message is a predicate (`must be a 0x address`) that follows the field's path,
 * so a failure reads `setup.json: dapps[0].contracts[1].address must be a 0x address` (readSetup.ts).
 */

/** A key in the shape Opstation generates (store/ids.ts): 9 letters or digits, a dot and a lowercase UUID. */
export const API_KEY_PATTERN =
  /^[A-Za-z0-9]{9}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/
/** Whole ETH, up to 18 decimals (wei), at most a trillion ETH. */
const ETH_PATTERN = /^\d{1,12}(\.\d{1,18})?$/
const MAX_ABI_LENGTH = 900 * 1024
/** The last second of year 9999 (as the policies route). */
const MAX_UNIX_SECONDS = 253_402_300_799
const MAX_CYCLE_VALUE = 100_000

/** `is required` when the field is missing, else `message`. */
const required = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : message

/** An object that names its unknown fields (a typo such as `webhook` for `webhooks` is not silently ignored). */
function strictObject<T extends z.ZodRawShape>(shape: T, description: string) {
  return z
    .strictObject(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `has an unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
          : required('must be an object')(issue),
    })
    .describe(description)
}

function array<T extends z.ZodType>(item: T, max: number, description: string) {
  return z
    .array(item, { error: required('must be an array') })
    .max(max, { error: `must have at most ${max} entries` })
    .describe(description)
}

const address = (description: string) =>
  z
    .string({ error: required('must be a 0x address (0x followed by 40 hex digits)') })
    .regex(ADDRESS_PATTERN, { error: 'must be a 0x address (0x followed by 40 hex digits)' })
    .describe(description)

/** An ETH amount as a decimal string ("10", "0.5"); a JSON number is read as its decimal text. */
const ETH_FORMAT = 'must be an amount of ETH with at most 12 digits before the point and 18 after it'
const ethAmount = (description: string) =>
  z
    .union(
      [
        z.string().regex(ETH_PATTERN, { error: ETH_FORMAT }),
        z
          .number()
          .nonnegative({ error: 'must not be negative' })
          .max(1e12, { error: 'must be at most a trillion ETH' })
          .describe('an amount of ETH; a string keeps every decimal'),
      ],
      { error: required('must be an amount of ETH as a decimal string, such as "10" or "0.5"') },
    )
    .transform(String)
    .pipe(z.string().regex(ETH_PATTERN, { error: ETH_FORMAT }))
    .describe(description)

const chainId = (description: string) =>
  z
    .number({ error: required('must be a chain id (a whole number from 1)') })
    .int({ error: 'must be a chain id (a whole number from 1)' })
    .positive({ error: 'must be a chain id (a whole number from 1)' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'must be a chain id (a whole number from 1)' })
    .describe(description)

const httpUrl = (pattern: RegExp, message: string, description: string) =>
  z
    .string({ error: required(message) })
    .regex(pattern, { error: message })
    .optional()
    .describe(description)

/** A chain: its id alone (an embedded anvil), or `{ chainId, forkUrl?, forkBlock?, rpcUrl? }`. */
const chainSchema = z
  .union([
    chainId('An embedded anvil with this chain id.'),
    strictObject(
      {
        chainId: chainId('The chain id.'),
        forkUrl: httpUrl(
          /^https?:\/\/.+/,
          'must be an http(s) URL',
          'Run the embedded anvil as a fork of the chain at this URL.',
        ),
        forkBlock: z
          .number({ error: 'must be a block number' })
          .int({ error: 'must be a block number' })
          .min(0, { error: 'must be a block number' })
          .optional()
          .describe('Block to fork at (default: the remote head at the first start).'),
        rpcUrl: httpUrl(
          /^(https?|wss?):\/\/.+/,
          'must be an http(s) or ws(s) URL',
          'Use the external node at this URL (its chain id must be chainId).',
        ),
      },
      'A chain: an embedded anvil, a fork (forkUrl) or an external node (rpcUrl).',
    ).superRefine((chain, ctx) => {
      if (chain.forkUrl && chain.rpcUrl)
        ctx.addIssue({
          code: 'custom',
          path: ['rpcUrl'],
          message: 'cannot go with forkUrl (a chain is one or the other)',
        })
      if (chain.forkBlock !== undefined && !chain.forkUrl)
        ctx.addIssue({ code: 'custom', path: ['forkBlock'], message: 'needs forkUrl' })
    }),
  ])
  .transform((chain) => (typeof chain === 'number' ? { chainId: chain } : chain))

const boolean = (description: string) =>
  z.boolean({ error: required('must be true or false') }).describe(description)

const name = (description: string) =>
  z
    .string({ error: required('must be a string') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(100, { error: 'must be at most 100 characters' })
    .describe(description)

const abiSchema = z
  .union(
    [
      z.array(z.record(z.string(), z.unknown(), { error: 'must be an ABI item (an object)' }), {
        error: 'must be an ABI: a JSON array of ABI items',
      }),
      z.string().max(MAX_ABI_LENGTH, { error: `must be at most ${MAX_ABI_LENGTH} characters` }),
    ],
    { error: required('must be an ABI: a JSON array of ABI items, or that array as a string') },
  )
  .transform((abi) => (typeof abi === 'string' ? abi : JSON.stringify(abi)))
  .describe('The contract ABI: a JSON array (as solc and viem give it), or the stringified array.')

const contractSchema = strictObject(
  {
    name: name('Unique name of the contract within the dApp.'),
    address: address('Contract address; the key the contract is found by.'),
    abi: abiSchema,
    whitelistedMethods: array(
      z.string({ error: 'must contain only method names' }),
      1000,
      'Methods of the ABI the dApp sponsors. Left out: unchanged ([] for a new contract).',
    ).optional(),
  },
  'A contract of the dApp, found by its address.',
).superRefine((contract, ctx) => {
  if (typeof contract.abi !== 'string') return
  try {
    const parsed = parseContractAbi(contract.abi)
    if (contract.whitelistedMethods) assertMethodsInAbi([...new Set(contract.whitelistedMethods)], parsed)
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err
    const inMethods = err.shortMessage.startsWith('whitelistedMethods')
    ctx.addIssue({
      code: 'custom',
      path: [inMethods ? 'whitelistedMethods' : 'abi'],
      message: inMethods
        ? `names ${err.shortMessage.replace(/^whitelistedMethods contains /, '')}`
        : `is not a valid ABI (${err.shortMessage.replace(/^abi /, '')})`,
    })
  }
})

const webhookSchema = strictObject(
  {
    webhookUrl: z
      .string({ error: required('must be an http(s) URL') })
      .max(2048, { error: 'must be at most 2048 characters' })
      .refine(isHttpUrl, { error: 'must be an http(s) URL' })
      .describe('Where the service asks whether to sponsor; the key the webhook is found by.'),
    requestType: z
      .enum(['GET', 'POST'], { error: 'must be GET or POST' })
      .optional()
      .describe('HTTP method of the call. Left out: unchanged (POST for a new webhook).'),
    active: boolean('Whether the webhook is asked. Left out: unchanged (true for a new webhook).').optional(),
  },
  'A webhook of the dApp, found by its URL.',
)

const unixSeconds = (description: string) =>
  z
    .number({ error: 'must be a unix time in seconds, or null' })
    .int({ error: 'must be whole seconds' })
    .nonnegative({ error: 'must not be negative' })
    .max(MAX_UNIX_SECONDS, { error: `must be at most ${MAX_UNIX_SECONDS} (the end of year 9999)` })
    .nullable()
    .describe(description)

/** A block number a v0.9 window can name, from `least`. */
const blockNumber = (least: number, description: string) =>
  z
    .number({ error: required(`must be a block number from ${least}, or null`) })
    .int({ error: 'must be a whole block number' })
    .min(least, { error: `must be at least ${least}` })
    .max(MAX_WINDOW_BLOCK, {
      error: `must be at most ${MAX_WINDOW_BLOCK} (the largest block a window names)`,
    })
    .describe(description)

const blockWindowSchema = strictObject(
  {
    validForBlocks: z
      .number({ error: required(`must be a whole number of blocks from ${MIN_VALID_FOR_BLOCKS}`) })
      .int({ error: `must be a whole number of blocks from ${MIN_VALID_FOR_BLOCKS}` })
      .min(MIN_VALID_FOR_BLOCKS, {
        error: `must be at least ${MIN_VALID_FOR_BLOCKS} (the bundler admits an operation only while it stays valid for ${MIN_VALID_FOR_BLOCKS} more blocks)`,
      })
      .max(MAX_WINDOW_BLOCK, { error: `must be at most ${MAX_WINDOW_BLOCK}` })
      .describe('Each sponsorship is valid for this many blocks from the block it is signed at.'),
    validAfterBlock: blockNumber(0, 'Sponsor only once the chain is past this block (null: from now).')
      .nullable()
      .default(null),
    validUntilBlock: blockNumber(
      1,
      'Sponsor only before this block; no signed window ends later (null: no end).',
    )
      .nullable()
      .default(null),
  },
  `Sponsorships signed for a window in block numbers. ${BLOCK_WINDOW_VERSIONS_NOTE}.`,
).refine(
  (w) => w.validAfterBlock === null || w.validUntilBlock === null || w.validAfterBlock < w.validUntilBlock,
  { error: 'must be before validUntilBlock', path: ['validAfterBlock'] },
)

const THRESHOLD_FORMAT = 'must be a positive whole number (a count, or wei as a decimal string)'
const limitSchema = strictObject(
  {
    id: z
      .string({ error: 'must be a string' })
      .min(1, { error: 'must not be empty' })
      .optional()
      .describe('Left out: the service names it (a limit equal to one in place keeps its id).'),
    type: z
      .enum(['PAYMASTER', 'SMART_ACCOUNT'], { error: required('must be PAYMASTER or SMART_ACCOUNT') })
      .describe('PAYMASTER: the whole dApp; SMART_ACCOUNT: each sender.'),
    thresholdType: z
      .enum(['COUNT', 'NATIVE_ASSET'], { error: required('must be COUNT or NATIVE_ASSET') })
      .describe('COUNT: operations; NATIVE_ASSET: gas spent, in wei.'),
    threshold: z
      .union(
        [
          z.string().regex(/^\d{1,78}$/, { error: THRESHOLD_FORMAT }),
          z.number().int({ error: THRESHOLD_FORMAT }).positive({ error: THRESHOLD_FORMAT }),
        ],
        {
          error: required(THRESHOLD_FORMAT),
        },
      )
      .transform(String)
      .pipe(
        z
          .string()
          .regex(/^\d{1,78}$/, {
            error: THRESHOLD_FORMAT,
          })
          .refine((t) => !/^\d+$/.test(t) || BigInt(t) > 0n, {
            error: THRESHOLD_FORMAT,
          }),
      )
      .describe('Operations (COUNT) or wei (NATIVE_ASSET) per cycle.'),
    cycleDuration: strictObject(
      {
        value: z
          .number({ error: required('must be a whole number') })
          .int({ error: 'must be a whole number' })
          .positive({ error: 'must be positive' })
          .max(MAX_CYCLE_VALUE, { error: `must be at most ${MAX_CYCLE_VALUE}` }),
        unit: z.enum(['hour', 'day'], { error: required('must be hour or day') }),
      },
      'How long a cycle lasts.',
    ),
    active: boolean('Default true.').default(true),
  },
  'A spending limit.',
)

const policiesSchema = strictObject(
  {
    limits: array(limitSchema, 50, 'Spending limits: replaces the list (left out: unchanged).').optional(),
    validAfter: unixSeconds('Sponsor only after this unix time (null: no start).').optional(),
    validUntil: unixSeconds('Sponsor only before this unix time (null: no end).').optional(),
    blockWindow: blockWindowSchema
      .nullable()
      .optional()
      .describe('v0.9 sponsorships signed for a window in block numbers (null: time windows).'),
    premiumPercentage: z
      .number({ error: 'must be a number from 0 to 100' })
      .min(0, { error: 'must be a number from 0 to 100' })
      .max(100, { error: 'must be a number from 0 to 100' })
      .optional()
      .describe('Premium added to ERC20 fee quotes, percent.'),
  },
  "The dApp's sponsorship policies; a field left out is unchanged.",
).superRefine((policies, ctx) => {
  const { validAfter, validUntil } = policies
  if (typeof validAfter === 'number' && typeof validUntil === 'number' && validAfter >= validUntil)
    ctx.addIssue({ code: 'custom', path: ['validAfter'], message: 'must be before validUntil' })
  const ids = new Set<string>()
  for (const [index, limit] of (policies.limits ?? []).entries()) {
    if (limit.id === undefined) continue
    if (ids.has(limit.id))
      ctx.addIssue({ code: 'custom', path: ['limits', index, 'id'], message: 'appears twice' })
    ids.add(limit.id)
  }
})

const gasTanksSchema = strictObject(
  Object.fromEntries(
    ENTRY_POINT_VERSIONS.map((version) => [
      version,
      ethAmount(`ETH the EntryPoint v${version} gas tank holds after the setup is applied.`).optional(),
    ]),
  ) as Record<(typeof ENTRY_POINT_VERSIONS)[number], z.ZodOptional<ReturnType<typeof ethAmount>>>,
  'Gas tank balances by EntryPoint version, set exactly (deposit or withdraw the difference). A version left out is unchanged.',
)

const dappSchema = strictObject(
  {
    name: name('The dApp (a paymaster in the dashboard API); the key it is found by.'),
    chainId: chainId(
      "The dApp's chain (a chain the service runs; default its first). A dApp stays on its chain.",
    ).optional(),
    apiKey: z
      .string({ error: 'must be a string' })
      .regex(API_KEY_PATTERN, {
        error:
          'must look like a generated apiKey: 9 letters or digits, a dot and a lowercase UUID (e.g. nJPK7B3ru.dd7f7861-190d-41bd-af80-6877f74b8f44)',
      })
      .optional()
      .describe(
        "Fixed apiKey, so dApp config files stay valid across runs. Left out: a new dApp gets a generated one, an existing dApp keeps its own. Given: an existing dApp's key is replaced (the old one stops working).",
      ),
    active: boolean('Whether the dApp sponsors. Left out: unchanged (true for a new dApp).').optional(),
    contracts: array(
      contractSchema,
      1000,
      'Contracts, by address; others of the dApp are left alone.',
    ).optional(),
    webhooks: array(webhookSchema, 100, 'Webhooks, by URL; others of the dApp are left alone.').optional(),
    policies: policiesSchema.optional(),
    gasTanksEth: gasTanksSchema.optional(),
  },
  'A dApp, found by its name.',
).superRefine((dapp, ctx) => {
  checkUnique(ctx, dapp.contracts ?? [], 'contracts', 'address', (c) => c.address.toLowerCase())
  checkUnique(ctx, dapp.contracts ?? [], 'contracts', 'name', (c) => c.name)
  checkUnique(ctx, dapp.webhooks ?? [], 'webhooks', 'webhookUrl', (w) => w.webhookUrl)
})

const tokenPriceSchema = strictObject(
  {
    tokenAddress: address('The fee token (0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE is the native coin).'),
    usdPrice: z
      .union([z.string(), z.number()], { error: required('must be a decimal number of USD') })
      .transform(String)
      .superRefine((usdPrice, ctx) => {
        const problem = checkUsdPrice(usdPrice)
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      })
      .describe('USD per whole token, e.g. "2000".'),
    logoUrl: z
      .string({ error: 'must be a string or null' })
      .max(2048, { error: 'must be at most 2048 characters' })
      .nullable()
      .optional()
      .describe('Logo shown in fee quotes. Left out: unchanged.'),
  },
  'The offline USD price of a fee token, found by its address.',
)

const accountSchema = strictObject(
  {
    address: address('Any address: an EOA, a smart account, a contract.'),
    balanceEth: ethAmount(
      'ETH the address holds after the setup is applied (set exactly on a dev node; elsewhere topped up from the executor).',
    ),
    chainId: chainId("The chain the address is funded on (default: the service's first chain).").optional(),
  },
  'An address funded with ETH on the chain.',
)

export const setupFileSchema = strictObject(
  {
    $schema: z.string({ error: 'must be a string' }).optional().describe('The JSON Schema of this file.'),
    version: z
      .literal(1, { error: required('must be 1 (the setup file version this Opstation reads)') })
      .describe('Setup file version: 1.'),
    chains: array(
      chainSchema,
      16,
      "The chains the service runs, first chain first, when it is started without chains of its own (opstation serve --chains, startOpstation({ chains })); with them, the setup's chains must be among them.",
    ).optional(),
    dapps: array(dappSchema, 1000, 'dApps, by name; others are left alone.').default([]),
    tokenPrices: array(tokenPriceSchema, 100, 'Fee token prices, by address; others are left alone.').default(
      [],
    ),
    accounts: array(accountSchema, 1000, 'Funded accounts, by address; others are left alone.').default([]),
  },
  'An Opstation setup: applied at start (opstation serve --setup, startOpstation({ setup })) or imported in the console. Applying it twice changes nothing.',
).superRefine((setup, ctx) => {
  checkUnique(ctx, setup.chains ?? [], 'chains', 'chainId', (c) => String(c.chainId))
  // A name is an account's once per chain (as the dashboard API): the same name may stand on two chains.
  checkUnique(ctx, setup.dapps, 'dapps', 'name', (d) => `${d.chainId ?? ''}:${d.name}`)
  checkUnique(ctx, setup.dapps, 'dapps', 'apiKey', (d) => d.apiKey)
  checkUnique(ctx, setup.tokenPrices, 'tokenPrices', 'tokenAddress', (p) => p.tokenAddress.toLowerCase())
  checkUnique(
    ctx,
    setup.accounts,
    'accounts',
    'address',
    (a) => `${a.chainId ?? ''}:${a.address.toLowerCase()}`,
  )
})

/** The setup file as written (numbers where strings are read too, fields left out). */
export type SetupFileInput = z.input<typeof setupFileSchema>
/** The setup file as read: defaults filled in, amounts as decimal strings, ABIs as their text. */
export type SetupFile = z.output<typeof setupFileSchema>
export type SetupDapp = SetupFile['dapps'][number]
export type SetupContract = NonNullable<SetupDapp['contracts']>[number]
export type SetupWebhook = NonNullable<SetupDapp['webhooks']>[number]
export type SetupPolicies = NonNullable<SetupDapp['policies']>
export type SetupLimit = NonNullable<SetupPolicies['limits']>[number]
export type SetupTokenPrice = SetupFile['tokenPrices'][number]
export type SetupAccount = SetupFile['accounts'][number]

/** Flags the second entry with the same key (`dapps[2].name is the same as dapps[0].name`). */
function checkUnique<T>(
  ctx: z.RefinementCtx,
  items: readonly T[],
  list: string,
  field: string,
  keyOf: (item: T) => string | undefined,
): void {
  const seen = new Map<string, number>()
  for (const [index, item] of items.entries()) {
    const key = keyOf(item)
    if (key === undefined) continue
    const first = seen.get(key)
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [list, index, field],
        message: `is the same as ${list}[${first}].${field}`,
      })
    else seen.set(key, index)
  }
}
