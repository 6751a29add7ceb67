/**
 * The service's own secrets: the key that signs session JWTs and the pepper that API
 * key hashes are keyed with. Taken from `SLUICE_JWT_SECRET` / `SLUICE_KEY_PEPPER` when
 * set, else generated once and kept in the control plane (`service_secrets`), so every
 * node on one control plane signs and checks alike and no file of the data directory
 * holds them. A data directory from before keeps its `secrets.json` values (sessions and
 * keys stay valid): they move into the control plane and the file is removed.
 */
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { SluiceConfig } from "../config/SluiceConfig.js"

const Secrets = Schema.Struct({ jwtSecret: Schema.String, keyPepper: Schema.String })
type Secrets = typeof Secrets.Type
const SecretsFile = Schema.parseJson(Secrets)

const NAMES = { jwtSecret: "jwt_secret", keyPepper: "key_pepper" } as const

const generated = (): Secrets => ({
  jwtSecret: randomBytes(32).toString("base64url"),
  keyPepper: randomBytes(32).toString("base64url")
})

export class ServiceSecrets extends Effect.Service<ServiceSecrets>()("sluice/ServiceSecrets", {
  effect: Effect.gen(function* () {
    const config = yield* SluiceConfig
    const sql = yield* SqlClient.SqlClient
    const legacyFile = path.join(config.dataDir, "secrets.json")
    const legacy = yield* Effect.tryPromise(() => fs.readFile(legacyFile, "utf8")).pipe(
      Effect.flatMap(Schema.decodeUnknown(SecretsFile)),
      Effect.option
    )
    const proposed = Option.getOrElse(legacy, generated)
    // The first node to write wins; the others, started at the same moment, read its values.
    yield* sql`INSERT INTO service_secrets ${sql.insert([
      { name: NAMES.jwtSecret, value: proposed.jwtSecret },
      { name: NAMES.keyPepper, value: proposed.keyPepper }
    ])} ON CONFLICT (name) DO NOTHING`.pipe(Effect.orDie)
    const rows = yield* sql<{
      name: string
      value: string
    }>`SELECT name, value FROM service_secrets`.pipe(Effect.orDie)
    const stored = (name: string) => rows.find((row) => row.name === name)?.value ?? ""
    if (Option.isSome(legacy)) yield* Effect.promise(() => fs.rm(legacyFile, { force: true }))
    const pick = (env: Option.Option<Redacted.Redacted<string>>, name: string) =>
      Redacted.make(
        Buffer.from(Option.match(env, { onSome: Redacted.value, onNone: () => stored(name) }))
      )
    return {
      jwtSecret: pick(config.jwtSecret, NAMES.jwtSecret),
      keyPepper: pick(config.keyPepper, NAMES.keyPepper)
    } as const
  })
}) {
  /** For tests and embedding: fixed secrets, nothing stored. */
  static readonly fixed = (jwtSecret: string, keyPepper: string) =>
    Layer.succeed(
      ServiceSecrets,
      ServiceSecrets.make({
        jwtSecret: Redacted.make(Buffer.from(jwtSecret)),
        keyPepper: Redacted.make(Buffer.from(keyPepper))
      })
    )
}
