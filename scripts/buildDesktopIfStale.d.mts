/** Types of buildDesktopIfStale.mjs (a plain script, also imported by tests). */
export declare const DESKTOP_BUILD: { main: string; preload: string; renderer: string }
export declare function isDesktopBuildFresh(): boolean
export declare function buildDesktopIfStale(): 'fresh' | 'built'
