import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { cacheDirectory } from "../../src/bundle/CacheDirectory.js"
import { workerCommand } from "../../src/provisioner/WorkerCommand.js"

const project = path.join(import.meta.dirname, "../..")

/** The service's bundle as `npm install` builds it, and its text. */
const serviceBundle = () => {
  const said = execFileSync(process.execPath, ["src/start.mjs", "--prepare"], {
    cwd: project,
    encoding: "utf8"
  })
  const name = /\((main-[0-9a-f]+\.cjs)\)/.exec(said)?.[1]
  expect(name).toBeDefined()
  return fs.readFileSync(path.join(cacheDirectory(), name!), "utf8")
}

describe("the service's bundle (npm start)", () => {
  // esbuild names each bundled module in a comment (`// node_modules/…/X.js`).
  it("holds the modules of @effect/platform, platform-node and sql it uses, never a package's index", () => {
    const bundle = serviceBundle()
    expect(bundle).toContain("@effect/platform/dist/esm/HttpApiBuilder.js")
    expect(bundle).toContain("@effect/platform-node/dist/esm/NodeRuntime.js")
    expect(bundle).toContain("@effect/sql/dist/esm/SqlClient.js")
    // The index loads the API reference pages (Scalar's, Swagger UI's: ~20 MB of heap),
    // platform-node's @effect/cluster, sql's its event journal: the service uses none.
    expect(bundle).not.toContain("@effect/platform/dist/esm/index.js")
    expect(bundle).not.toContain("@effect/platform/dist/esm/HttpApiScalar.js")
    expect(bundle).not.toContain("node_modules/@effect/cluster/")
    expect(bundle).not.toContain("@effect/sql/dist/esm/SqlEventJournal.js")
  })

  it("leaves out what loads files beside itself or native code, and the AWS SDK until a storage check asks", () => {
    const bundle = serviceBundle()
    expect(bundle).toContain('require("@electric-sql/pglite")')
    expect(bundle).not.toContain("node_modules/@electric-sql/pglite/")
    expect(bundle).not.toContain("node_modules/@aws-sdk/")
    // An `import()` written as a `require` made when the promise runs, not at load.
    expect(bundle).toContain('Promise.resolve().then(() => __toESM(require("@aws-sdk/client-s3")')
    expect(bundle).toContain('Promise.resolve().then(() => __toESM(require("@aws-sdk/client-sts")')
  })
})

describe("the engine worker's bundle", () => {
  it.effect("leaves out undici, which only platform-node's HTTP client needs", () =>
    Effect.gen(function* () {
      // Run by a script that compiles it with its code cache, as the service's.
      const [runner, file] = yield* workerCommand
      expect(runner).toMatch(/src\/bundle\/runBundle\.cjs$/)
      expect(file).toMatch(/engine-worker-[0-9a-f]+\.cjs$/)
      const bundle = fs.readFileSync(file!, "utf8")
      // esbuild names each bundled file in a comment: the socket server's is in, the HTTP
      // client's and undici's are not.
      expect(bundle).toContain("@effect/platform-node-shared/dist/esm/NodeSocketServer.js")
      expect(bundle).not.toContain("@effect/platform-node/dist/esm/NodeHttpClient.js")
      expect(bundle).not.toContain("node_modules/undici/")
    })
  )
})

describe("both bundles' text", () => {
  // One character past U+00FF anywhere (a comment esbuild keeps) makes V8 hold the whole
  // script at two bytes a character: 1.2 MB more in the service, 2 MB in every worker.
  const beyondLatin1 = /[^\u0000-\u00ff]/
  it.effect("is Latin-1 throughout, so V8 keeps one byte a character", () =>
    Effect.gen(function* () {
      const main = serviceBundle()
      const [, workerFile] = yield* workerCommand
      const worker = fs.readFileSync(workerFile!, "utf8")
      expect(beyondLatin1.exec(main)?.[0]).toBeUndefined()
      expect(beyondLatin1.exec(worker)?.[0]).toBeUndefined()
      // The comments that held such characters are still there, escaped.
      expect(main).toContain("\\u2026")
    })
  )
})
