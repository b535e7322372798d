/** Types of publishConsole.mjs (a plain script, also imported by tests). */
export declare const BUILD_DIR: string
export declare const CONSOLE_DIR: string
export declare function publishConsole(options?: { buildDir?: string; consoleDir?: string }): {
  files: number
  at: number
}
