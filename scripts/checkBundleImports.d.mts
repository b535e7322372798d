/** Types of checkBundleImports.mjs (a plain script, also imported by tests). */
type Metafile = { outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }> }
export declare function toPackageName(specifier: string): string
export declare function checkBundleImports(parameters: {
  manifest: { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }
  metafiles: Metafile[]
  peerImporters?: string[]
}): Record<string, string[]>
