/** Types of build-contracts.mjs (a plain script, also imported by the notices generator). */
export declare const CONTRACT_PACKAGES: Readonly<
  Record<string, { tarball?: string; repository: string; ref?: string; commit?: string }>
>
export declare function buildArtifacts(): Record<string, unknown>
