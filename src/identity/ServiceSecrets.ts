/**
 * The service's own secrets: the key that signs session JWTs and the pepper that API
 * key hashes are keyed with. Taken from `SLUICE_JWT_SECRET` / `SLUICE_KEY_PEPPER` when
 * set (required when several instances share one control plane), else generated once
 * and kept in `<data dir>/secrets.json`, readable by the service's user only.
 */
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { SluiceConfig } from "../config/SluiceConfig.js"

const SecretsFile = Schema.parseJson(
  Schema.Struct({ jwtSecret: Schema.String, keyPepper: Schema.String })
)

export class ServiceSecrets extends Effect.Service<ServiceSecrets>()("sluice/ServiceSecrets", {
  effect: Effect.gen(function* () {
    const config = yield* SluiceConfig
    const file = path.join(config.dataDir, "secrets.json")
    const stored = yield* Effect.tryPromise(() => fs.readFile(file, "utf8")).pipe(
      Effect.flatMap(Schema.decodeUnknown(SecretsFile)),
      Effect.option
    )
    const secrets = yield* Option.match(stored, {
      onSome: Effect.succeed,
      onNone: () => {
        const fresh = {
          jwtSecret: randomBytes(32).toString("base64url"),
          keyPepper: randomBytes(32).toString("base64url")
        }
        return Effect.tryPromise(async () => {
          await fs.mkdir(config.dataDir, { recursive: true, mode: 0o700 })
          await fs.writeFile(file, JSON.stringify(fresh), { mode: 0o600, flag: "wx" })
          return fresh
        }).pipe(Effect.orDie)
      }
    })
    const pick = (env: Option.Option<Redacted.Redacted<string>>, generated: string) =>
      Redacted.make(
        Buffer.from(Option.match(env, { onSome: Redacted.value, onNone: () => generated }))
      )
    return {
      jwtSecret: pick(config.jwtSecret, secrets.jwtSecret),
      keyPepper: pick(config.keyPepper, secrets.keyPepper)
    } as const
  })
}) {
  /** For tests and embedding: fixed secrets, no file. */
  static readonly fixed = (jwtSecret: string, keyPepper: string) =>
    Layer.succeed(
      ServiceSecrets,
      ServiceSecrets.make({
        jwtSecret: Redacted.make(Buffer.from(jwtSecret)),
        keyPepper: Redacted.make(Buffer.from(keyPepper))
      })
    )
}
