/** Types of lockDir.mjs (a plain script module, also imported by test helpers). */
export declare function takeLockDirSync(dir: string, onWait?: (holderPid: number) => void): void
export declare function takeLockDir(dir: string, onWait?: (holderPid: number) => void): Promise<void>
export declare function releaseLockDir(dir: string): void
