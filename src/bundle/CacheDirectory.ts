/**
 * Where built artefacts are kept between starts: `node_modules/.cache/sluice/`, built once
 * per checkout (or per install) and reused by every later process. Under `node_modules` a
 * bundle's external packages still resolve, and `npm install` of a new version of a
 * dependency leaves the old artefacts behind, named by their inputs, unused.
 */
import { createRequire } from "node:module"
import * as path from "node:path"

const require = createRequire(import.meta.url)

/** This checkout's `node_modules` (a link into another checkout resolves to that one). */
export const nodeModules = () => {
  const esbuild = require.resolve("esbuild")
  return esbuild.slice(0, esbuild.lastIndexOf(`${path.sep}node_modules${path.sep}`) + 13)
}

export const cacheDirectory = () => path.join(nodeModules(), ".cache", "sluice")
