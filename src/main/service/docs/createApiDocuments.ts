import type { RpcMethodRegistry } from '../jsonrpc/defineMethod'
import { buildOpenApiDocument, type OpenApiDocument } from './buildOpenApiDocument'
import { buildOpenRpcDocument, type OpenRpcDocument } from './buildOpenRpcDocument'
import type { CollectedRoute } from './collectRoutes'
import { renderReferencePage } from './renderReferencePage'

export type ApiDocuments = {
  openapi: OpenApiDocument
  openrpc: OpenRpcDocument
  /** The reference page (`/docs/`). */
  html: string
}

export type CreateApiDocumentsParameters = {
  /** Filled as the server registers its routes (collectRoutes.ts). */
  routes: readonly CollectedRoute[]
  bundlerMethods: RpcMethodRegistry
  paymasterMethods: RpcMethodRegistry
  getVersion: () => string
}

/** The documents of a server, built at the first call (once every route is registered) and kept. */
export function createApiDocuments(params: CreateApiDocumentsParameters): () => ApiDocuments {
  let documents: ApiDocuments | undefined
  return () => {
    if (documents) return documents
    const version = params.getVersion()
    const openapi = buildOpenApiDocument({ routes: params.routes, version })
    const openrpc = buildOpenRpcDocument({
      bundlerMethods: params.bundlerMethods,
      paymasterMethods: params.paymasterMethods,
      version,
    })
    documents = { openapi, openrpc, html: renderReferencePage(openapi, openrpc) }
    return documents
  }
}
