/** Prints where sluice listens and, on the first start only, the bootstrap secrets. */
import { HttpServer } from "@effect/platform"
import { Console, Effect, Layer, Option, Redacted } from "effect"
import { SluiceConfig, describeInfrastructure } from "../config/SluiceConfig.js"
import { FirstStart } from "../../domain/FirstStart.js"

export const AnnounceLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const server = yield* HttpServer.HttpServer
    const config = yield* SluiceConfig
    const firstStart = yield* FirstStart
    const address = server.address
    const url =
      address._tag === "TcpAddress"
        ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`
        : `unix:${address.path}`
    const listening = `sluice listening on ${url} (${describeInfrastructure(config)}, data in ${config.dataDir})`
    // One write, so a reader of the output never sees the address without the secrets.
    if (Option.isNone(firstStart)) return yield* Console.log(listening)
    const creds = firstStart.value
    yield* Console.log(
      [
        listening,
        "",
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
