/**
 * The service's secrets live in the control plane, not in a file of the data directory;
 * a data directory from before keeps its secrets (its sessions and keys stay valid).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Redacted } from "effect"
import { ServiceSecrets } from "../../src/identity/ServiceSecrets.js"
import { adminKeyOf, call, freshDataDir, startServer } from "../support/server.js"

const secretsOf = (context: Context.Context<ServiceSecrets>) => {
  const secrets = Context.get(context, ServiceSecrets)
  return {
    jwtSecret: Redacted.value(secrets.jwtSecret).toString(),
    keyPepper: Redacted.value(secrets.keyPepper).toString()
  }
}

describe("service secrets", () => {
  it.live(
    "are made once, kept in the control plane and never written to the data directory",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("sluice-secrets")
        const first = yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir)
            const sql = Context.get(server.context, SqlClient.SqlClient)
            const rows = yield* sql<{
              name: string
            }>`SELECT name FROM service_secrets ORDER BY name`
            expect(rows.map((row) => row.name)).toEqual(["jwt_secret", "key_pepper"])
            expect(fs.existsSync(path.join(dataDir, "secrets.json"))).toBe(false)
            return { secrets: secretsOf(server.context), key: adminKeyOf(server) }
          })
        )
        expect(first.secrets.jwtSecret.length).toBeGreaterThanOrEqual(43)
        yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir)
            expect(secretsOf(server.context)).toEqual(first.secrets)
            expect((yield* call(server, "GET", "/v1/keys", { token: first.key })).status).toBe(200)
          })
        )
      }),
    180_000
  )

  it.live(
    "a data directory's secrets.json moves into the control plane and the file goes",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("sluice-secrets-legacy")
        const legacy = { jwtSecret: "legacy-signing-key-".repeat(3), keyPepper: "legacy-pepper" }
        fs.writeFileSync(path.join(dataDir, "secrets.json"), JSON.stringify(legacy), {
          mode: 0o600
        })
        yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir)
            expect(secretsOf(server.context)).toEqual(legacy)
          })
        )
        expect(fs.existsSync(path.join(dataDir, "secrets.json"))).toBe(false)
        yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir)
            expect(secretsOf(server.context)).toEqual(legacy)
          })
        )
      }),
    180_000
  )
})
