import type { FastifyInstance } from 'fastify'
import { isAddress } from 'viem'
import { z } from 'zod'
import type { Chain } from '../chain'
import { AUTH_TOKEN_REQUIRED } from '../dashboard/auth'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { ChainError, InvalidInputError } from '../errors'
import {
  checkUsdPrice,
  getNativeUsdPrice,
  listSupportedTokens,
  NATIVE_TOKEN_ADDRESS,
  readPriceTable,
} from '../paymaster/tokenPrices'
import { parseInput } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import { setTokenPrice } from '../store/tokenPrices.repo'
import { authenticateConsole } from './consoleDapp'

const PutBody = z.object(
  {
    tokenAddress: z
      .string({ error: 'tokenAddress must be an address' })
      .refine((v) => isAddress(v, { strict: false }), { error: 'tokenAddress must be an address' }),
    usdPrice: z
      .union([z.string(), z.number()], { error: 'usdPrice must be a decimal number' })
      .transform(String)
      .superRefine((usdPrice, ctx) => {
        const problem = checkUsdPrice(usdPrice)
        if (problem) ctx.addIssue({ code: 'custom', message: `usdPrice ${problem}` })
      }),
    logoUrl: z.string({ error: 'logoUrl must be a string or null' }).nullable().optional(),
  },
  { error: 'Request body must be a JSON object' },
)

const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/)

const TokenPricesViewSchema = z.object({
  native: z.object({
    tokenAddress: addressSchema.meta({ description: '0xEeee...EEeE, the native coin' }),
    usdPrice: z.string().meta({ description: 'USD per ETH, decimal' }),
  }),
  tokens: z.array(
    z.object({
      name: z.string(),
      symbol: z.string(),
      address: addressSchema,
      decimals: z.number().int(),
      usdPrice: z.string().meta({ description: 'USD per whole token, decimal' }),
      logoUrl: z.string(),
    }),
  ),
})
type TokenPricesView = z.output<typeof TokenPricesViewSchema>

/** What the two routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: settings',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
  data: TokenPricesViewSchema,
} as const satisfies Partial<RouteDoc>

/**
 * Offline prices of the ERC20 fee tokens: `GET /console/api/token-prices` (native coin and supported tokens)
 * and `PUT` `{tokenAddress, usdPrice, logoUrl?}` (tokenAddress 0xEeee...EEeE is the native coin).
 */
export async function registerTokenPriceRoutes(
  app: FastifyInstance,
  options: { store: Store; getChain: () => Chain | undefined },
): Promise<void> {
  const { store } = options
  const view = (): TokenPricesView => {
    const chain = options.getChain()
    if (!chain) throw new ChainError('The chain is not running: fee tokens live on chain')
    return {
      native: { tokenAddress: NATIVE_TOKEN_ADDRESS, usdPrice: getNativeUsdPrice(store) },
      tokens: listSupportedTokens(chain.addresses.tokens, store),
    }
  }
  app.get(
    '/console/api/token-prices',
    withDoc({
      ...DOC,
      summary: 'The offline USD prices of the native coin and the ERC20 fee tokens',
      errors: { 503: 'No chain is running' },
    }),
    async (request, reply) => {
      authenticateConsole(store, request)
      return sendOk(reply, 'Token prices fetched', view())
    },
  )
  app.put(
    '/console/api/token-prices',
    withDoc({
      ...DOC,
      summary: 'Set the USD price of a fee token (tokenAddress 0xEeee...EEeE: the native coin)',
      body: PutBody,
      errors: {
        400: 'Invalid input (`message` names the field), or a price that leaves a token without an exchange rate',
        503: 'No chain is running',
      },
    }),
    async (request, reply) => {
      authenticateConsole(store, request)
      const body = parseInput(PutBody, request.body)
      const chain = options.getChain()
      if (chain) {
        // A price is checked against the others too: every token must keep an exchange rate of at least 1 base unit.
        const others = store.data.tokenPrices.filter(
          (p) => p.tokenAddress.toLowerCase() !== body.tokenAddress.toLowerCase(),
        )
        const { unquotable } = readPriceTable(chain.addresses.tokens, [
          ...others,
          { tokenAddress: body.tokenAddress, usdPrice: body.usdPrice, logoUrl: null },
        ])
        if (unquotable.length > 0)
          throw new InvalidInputError(
            `usdPrice ${body.usdPrice} leaves ${unquotable.join(', ')} without an exchange rate (under 1 base unit per ETH): raise the native coin's price or lower the token's`,
          )
      }
      await setTokenPrice(store, body)
      return sendOk(reply, 'Token price set', view())
    },
  )
}
