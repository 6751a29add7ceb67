import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { cacheDirectory } from "../../src/bundle/CacheDirectory.js"
import { workerCommand } from "../../src/provisioner/WorkerCommand.js"

const project = path.join(import.meta.dirname, "../..")

describe("the service's bundle (npm start)", () => {
  it("imports each module of @effect/platform, platform-node, sql and rpc by its own path, never a package's index", () => {
    const said = execFileSync(process.execPath, ["src/start.mjs", "--prepare"], {
      cwd: project,
      encoding: "utf8"
    })
    const name = /\((main-[0-9a-f]+\.mjs)\)/.exec(said)?.[1]
    expect(name).toBeDefined()
    const bundle = fs.readFileSync(path.join(cacheDirectory(), name!), "utf8")
    // The index loads the API reference pages (Scalar's, Swagger UI's): ~20 MB of heap.
    expect(bundle).not.toMatch(/from\s*"@effect\/platform"/)
    expect(bundle).toContain('from "@effect/platform/HttpApiBuilder"')
    // platform-node's loads @effect/cluster, sql's its event journal: the service uses neither.
    expect(bundle).not.toMatch(/from\s*"@effect\/(platform-node|sql|rpc)"/)
    expect(bundle).toContain('from "@effect/platform-node/NodeRuntime"')
    expect(bundle).toContain('from "@effect/sql/SqlClient"')
    expect(bundle).toContain('from "@effect/rpc/RpcClient"')
  })

  it("loads the AWS SDK only when a storage check asks for it", () => {
    const said = execFileSync(process.execPath, ["src/start.mjs", "--prepare"], {
      cwd: project,
      encoding: "utf8"
    })
    const bundle = fs.readFileSync(
      path.join(cacheDirectory(), /\((main-[0-9a-f]+\.mjs)\)/.exec(said)![1]!),
      "utf8"
    )
    expect(bundle).not.toMatch(/from\s*"@aws-sdk\//)
    expect(bundle).toContain('import("@aws-sdk/client-s3")')
    expect(bundle).toContain('import("@aws-sdk/client-sts")')
  })
})

describe("the engine worker's bundle", () => {
  it.effect("leaves out undici, which only platform-node's HTTP client needs", () =>
    Effect.gen(function* () {
      const [file] = yield* workerCommand
      expect(file).toMatch(/engine-worker-[0-9a-f]+\.mjs$/)
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
      const said = execFileSync(process.execPath, ["src/start.mjs", "--prepare"], {
        cwd: project,
        encoding: "utf8"
      })
      const main = fs.readFileSync(
        path.join(cacheDirectory(), /\((main-[0-9a-f]+\.mjs)\)/.exec(said)![1]!),
        "utf8"
      )
      const [workerFile] = yield* workerCommand
      const worker = fs.readFileSync(workerFile!, "utf8")
      expect(beyondLatin1.exec(main)?.[0]).toBeUndefined()
      expect(beyondLatin1.exec(worker)?.[0]).toBeUndefined()
      // The comments that held such characters are still there, escaped.
      expect(main).toContain("\\u2026")
    })
  )
})
