/**
 * What `npm start` prints: on the first start the bootstrap secrets, as soon as they
 * exist, then where sluice listens. The secrets come before the servers listen, so a
 * start that fails after the bootstrap (a port in use) has shown them: they exist only
 * hashed, and the next start finds the bootstrap done and never prints them.
 */
import { HttpServer } from "@effect/platform"
import { Console, Effect, Layer, Option, Redacted } from "effect"
import { SluiceConfig, describeInfrastructure } from "../config/SluiceConfig.js"
import { FirstStart } from "../../domain/FirstStart.js"

/** The first start's secrets, when this start made them. */
export const FirstStartSecretsLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const firstStart = yield* FirstStart
    if (Option.isNone(firstStart)) return
    const creds = firstStart.value
    // One write, so a reader of the output sees all of them or none.
    yield* Console.log(
      [
        "First start: created organization 'default', cluster 'default', database 'default'.",
        `  admin email:    ${creds.email}`,
        Option.match(creds.generatedPassword, {
          onNone: () => "  admin password: (as given in SLUICE_ADMIN_PASSWORD)",
          onSome: (p) => `  admin password: ${Redacted.value(p)}`
        }),
        `  admin API key:  ${Redacted.value(creds.apiKey)}`,
        "These are shown once. Keep them somewhere safe.",
        ""
      ].join("\n")
    )
  })
)

/** Where the HTTP server listens. */
export const AnnounceLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const server = yield* HttpServer.HttpServer
    const config = yield* SluiceConfig
    const address = server.address
    const url =
      address._tag === "TcpAddress"
        ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`
        : `unix:${address.path}`
    yield* Console.log(
      `sluice listening on ${url} (${describeInfrastructure(config)}, data in ${config.dataDir})`
    )
  })
)
