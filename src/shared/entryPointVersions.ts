/**
 * The EntryPoint versions Opstation serves: the one spelling of the list, for the service, the store, the routes and
 * the console (its schema is api/fields.ts#EntryPointVersionSchema; this file imports nothing, so the console bundles
 * no zod for it). Adding a version adds it here and a folder under `src/main/service/entryPoint/`.
 */
export const ENTRY_POINT_VERSIONS = ['0.6', '0.7', '0.8', '0.9'] as const

export type EntryPointVersion = (typeof ENTRY_POINT_VERSIONS)[number]
