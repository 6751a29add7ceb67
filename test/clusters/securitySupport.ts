/** Helpers of the cluster security suites: calls with a key, members, polling. */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { Reply } from "../support/server.js"
import { eventually } from "../support/eventually.js"
import { TestServer, call } from "../support/server.js"
import { adminSession, request, sessionOf } from "./support.js"

export const sleep = (ms: number) => Effect.promise(() => new Promise((r) => setTimeout(r, ms)))

/** `call` on the shared server with a bearer credential (a key or a session). */
export const send = (
  token: string | undefined,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly headers?: Record<string, string> } = {}
): Effect.Effect<Reply, never, TestServer> =>
  Effect.flatMap(TestServer, (server) =>
    call(server, method, path, token === undefined ? options : { token, ...options })
  )

/** Rows of `sql` as JSONEachRow objects, asserting the query succeeded. */
export const rowsOf = (token: string, sql: string, query = "") =>
  Effect.map(
    send(token, "POST", `/v1/query${query}`, { body: { sql, format: "JSONEachRow" } }),
    (reply) => {
      expect(reply.status, reply.text).toBe(200)
      return reply.text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    }
  )

/** A new member (role `member`) of `default` with a password, and their session. */
export const memberSession = (email: string, password: string) =>
  Effect.gen(function* () {
    const admin = yield* adminSession
    const added = yield* request("POST", "/v1/organizations/default/members", admin, {
      email,
      role: "member",
      password
    })
    expect(added.status, added.text).toBeLessThan(300)
    return yield* sessionOf(email, password)
  })

/** Re-runs `attempt` every `every` ms until it returns a value; dies after `ms / every` looks. */
export const poll = <A, R>(
  what: string,
  attempt: Effect.Effect<A | undefined, never, R>,
  ms = 30_000,
  every = 200
) => eventually(what, attempt, { attempts: Math.ceil(ms / every), pauseMs: every })
