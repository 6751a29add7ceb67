import type { Plugin } from "esbuild"

/** Gives each module its own location and imports platform packages module by module. */
export declare const ownLocation: Plugin
