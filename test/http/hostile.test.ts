/**
 * Hostile input, seeded: every endpoint of the served OpenAPI document gets malformed
 * bodies, hostile paths and parameters, with no, invalid and valid credentials, over a
 * few keep-alive connections to one server. Never a 5xx, never a dropped connection,
 * always the endpoint's error
 * shape, nothing of the server's paths, stacks or secrets in a reply, and nothing
 * inserted while every request of a round was refused. A failure names the seed index,
 * so it replays exactly.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { installApp } from "../support/client.js"
import type { Outcome, Sent } from "../support/hostileClient.js"
import { keepAliveClient } from "../support/hostileClient.js"
import type { Prng } from "../support/hostileInputs.js"
import { hostileBody, hostileQuery, hostileValue, prng } from "../support/hostileInputs.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"
import type { RunningServer } from "../support/server.js"
import { namedCases } from "./hostileCases.js"
import { checkReply, type Operation } from "./hostileChecks.js"
import { changedTables, holdings, mayHaveWritten } from "./hostileHoldings.js"

const SEED = 20261124
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 10_000)
const ROUND = 250
const CONNECTIONS = 6

const dataDir = freshDataDir("hostile")
const secrets = {
  SLUICE_ADMIN_PASSWORD: "hostile-admin-password-1",
  SLUICE_JWT_SECRET: "hostile-jwt-secret-0123456789abcdefghij",
  SLUICE_KEY_PEPPER: "hostile-key-pepper-0123456789abcdefghijk"
}

const OpenApiPaths = Schema.Struct({
  paths: Schema.Record({
    key: Schema.String,
    value: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  })
})

/** Whether the document says the operation answers an HTML page (the device-login pages). */
const answersHtml = (operation: unknown) =>
  JSON.stringify(
    Schema.decodeUnknownOption(
      Schema.Struct({ responses: Schema.Record({ key: Schema.String, value: Schema.Unknown }) })
    )(operation).pipe(Option.map((o) => o.responses["200"]))
  ).includes('"text/html"')

const operationsOf = (server: RunningServer) =>
  Effect.map(call(server, "GET", "/v1/openapi.json"), (reply) =>
    Object.entries(Schema.decodeUnknownSync(OpenApiPaths)(reply.json).paths).flatMap(
      ([template, methods]) =>
        Object.entries(methods).map(([method, operation]): Operation => ({
          method: method.toUpperCase(),
          template,
          page: answersHtml(operation)
        }))
    )
  )

/** A plausible value for a path parameter: never one that names something that exists. */
const PLAUSIBLE: Record<string, string> = {
  table: "target",
  org: "default",
  app_id: "no-such-app",
  name: "job"
}

const pathOf = (r: Prng, { method, template }: Operation) => {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    method !== "DELETE" && r.next() < 0.4
      ? (PLAUSIBLE[name] ?? "00000000-0000-4000-8000-000000000000")
      : hostileValue(r)
  )
  // Now and then a route that is not one: traversal around a real one, doubled slashes.
  const roll = r.next()
  if (roll < 0.03) return `${path}/${hostileValue(r)}`
  if (roll < 0.05) return `/v1/..${path}`
  if (roll < 0.06) return path.replaceAll("/", "//")
  return path
}

/** Request headers the service reads, with hostile values. */
const HOSTILE_HEADERS = [
  "x-service-database",
  "x-service-client",
  "x-service-traces-table",
  "x-amz-firehose-access-key",
  "x-amz-firehose-common-attributes",
  "idempotency-key",
  "x-splunk-request-channel",
  "traceparent"
]

const credentialsOf = (key: string, session: string) => [
  {},
  { authorization: "Bearer rt_not_a_key" },
  { authorization: "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9." },
  { authorization: "Basic Og==" },
  { authorization: `Splunk ${"z".repeat(3000)}` },
  { authorization: "Bearer" },
  { authorization: `Bearer ${key}`, "x-service-database": "..%2Fsystem" },
  { authorization: `Bearer ${key}` },
  { authorization: `Bearer ${key}` },
  { authorization: `Splunk ${key}` },
  { authorization: `Bearer ${session}` },
  { authorization: `Bearer ${session}` }
]

const requestOf = (
  r: Prng,
  operation: Operation,
  credentials: ReadonlyArray<Record<string, string>>
): Sent & { readonly kind: string } => {
  const withBody = ["POST", "PUT", "PATCH"].includes(operation.method) || r.next() < 0.1
  const body = withBody ? hostileBody(r) : undefined
  const query = r.next() < 0.5 ? hostileQuery(r) : ""
  return {
    method: operation.method,
    path: pathOf(r, operation) + query,
    headers: {
      ...r.pick(credentials),
      ...(r.next() < 0.2 ? { [r.pick(HOSTILE_HEADERS)]: hostileValue(r) } : {}),
      ...body?.headers
    },
    body: body?.bytes,
    kind: body?.kind ?? "no body"
  }
}

layer(TestServer.layer(dataDir, { ...secrets, SLUICE_MAX_INSERT_BYTES: String(4 * 1024 * 1024) }), {
  excludeTestServices: true,
  timeout: 600_000
})("hostile input", (it) => {
  it.effect(
    `${REQUESTS} seeded hostile requests: no 5xx, no drop, the error shape`,
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const key = adminKeyOf(server)
        yield* installApp(server, "otlp-app", "admin@localhost", secrets.SLUICE_ADMIN_PASSWORD)
        yield* installApp(server, "spl-app", "admin@localhost", secrets.SLUICE_ADMIN_PASSWORD)
        const login = yield* call(server, "POST", "/v1/auth/login", {
          body: { email: "admin@localhost", password: secrets.SLUICE_ADMIN_PASSWORD }
        })
        const session = Schema.decodeUnknownSync(Schema.Struct({ token: Schema.String }))(
          login.json
        ).token
        const leaks = [dataDir, key, session, ...Object.values(secrets)]
        const operations = yield* operationsOf(server)
        expect(operations.length).toBeGreaterThan(40)
        const credentials = credentialsOf(key, session)
        const client = keepAliveClient(server.url, CONNECTIONS)
        const r = prng(SEED)
        const failures: Array<string> = []
        const statuses = new Map<number, number>()
        let before = yield* holdings(server)
        const started = Date.now()
        for (let first = 0; first < REQUESTS; first += ROUND) {
          const round = Array.from({ length: Math.min(ROUND, REQUESTS - first) }, (_, i) => {
            const operation = operations[(first + i) % operations.length]!
            return { index: first + i, operation, sent: requestOf(r, operation, credentials) }
          })
          const outcomes: ReadonlyArray<Outcome> = yield* Effect.promise(() =>
            Promise.all(round.map(({ sent }) => client.send(sent)))
          )
          const accepted: Array<{ operation: Operation; sent: Sent }> = []
          round.forEach(({ index, operation, sent }, i) => {
            const outcome = outcomes[i]!
            const problem = checkReply(operation, sent, outcome, leaks)
            if (outcome._tag === "Answered") {
              statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1)
              if (outcome.status < 300) accepted.push({ operation, sent })
            }
            if (problem !== undefined) {
              failures.push(
                `#${index} ${sent.method} ${sent.path.slice(0, 120)} [${sent.kind}]: ${problem}`
              )
            }
          })
          const after = yield* holdings(server)
          for (const key of changedTables(before, after)) {
            const table = key.slice(key.indexOf(".") + 1)
            const explained = accepted.some(({ operation, sent }) =>
              mayHaveWritten(operation, sent, table)
            )
            if (!explained)
              failures.push(`round from #${first}: ${key} changed, no request may have written it`)
          }
          before = after
        }
        client.close()
        yield* Effect.log(
          `hostile: ${REQUESTS} requests in ${Date.now() - started} ms; statuses ${JSON.stringify([...statuses].sort())}`
        )
        expect(failures.slice(0, 25)).toEqual([])
      }),
    600_000
  )

  namedCases(it, secrets.SLUICE_ADMIN_PASSWORD)
})
