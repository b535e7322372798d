import { z } from 'zod'

/**
 * The EntryPoint versions Opstation serves: the one spelling of the list, for the service, the store, the routes and
 * the console. Adding a version adds it here and a folder under `src/main/service/entryPoint/`.
 */
export const ENTRY_POINT_VERSIONS = ['0.6', '0.7', '0.8'] as const

export type EntryPointVersion = (typeof ENTRY_POINT_VERSIONS)[number]

/** Pure: a console that imports only the list above bundles no zod. */
export const EntryPointVersionSchema = /* @__PURE__ */ z.enum(ENTRY_POINT_VERSIONS)
