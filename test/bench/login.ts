/**
 * Password login's two refusals against one in-process server: a wrong password for an
 * existing user and any password for an unknown email. Both should cost one argon2
 * verification (the unknown user's against a decoy hash), so the response time does not
 * reveal which emails have accounts. Over `BENCH_LOGIN_ROUNDS` rounds (default 20),
 * alternating, after a warm-up: the fastest and the median of each, and their ratio.
 * The fastest is each path's own work; a busy machine only ever adds time.
 *
 * Failed sign-ins are throttled per account and per client address: each wrong password
 * is for an account of its own, and each attempt claims its own address behind a trusted
 * proxy, so every one reaches the password check.
 */
import { Effect } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { bodyOf, call, freshDataDir, startServer } from "../support/server.js"

const ROUNDS = Number(process.env.BENCH_LOGIN_ROUNDS ?? "20")
const EMAIL = "bench-admin@example.com"
const PASSWORD = "bench admin password"
// The unknown user must not answer in less than this share of the wrong password's time.
const TARGET_RATIO = 0.8

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const ms = (value: number) => `${value.toFixed(1)} ms`

export const login = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* startServer(freshDataDir("bench-login"), {
          SLUICE_ADMIN_EMAIL: EMAIL,
          SLUICE_ADMIN_PASSWORD: PASSWORD,
          SLUICE_TRUST_PROXY: "true"
        })
        const session = yield* call(server, "POST", "/v1/auth/login", {
          body: { email: EMAIL, password: PASSWORD }
        })
        const admin = bodyOf(LoginResponse, session).token
        const account = (i: number) => `bench-user-${i}@example.com`
        for (let i = 0; i < ROUNDS + 3; i++) {
          const added = yield* call(server, "POST", "/v1/organizations/default/members", {
            token: admin,
            body: { email: account(i), role: "member", password: PASSWORD }
          })
          if (added.status !== 201) return yield* Effect.dieMessage(`add: ${added.status}`)
        }
        let attempts = 0
        const timed = (email: string) =>
          Effect.gen(function* () {
            attempts += 1
            const start = performance.now()
            const reply = yield* call(server, "POST", "/v1/auth/login", {
              body: { email, password: "not the password" },
              headers: { "x-forwarded-for": `10.0.${attempts >> 8}.${attempts & 255}` }
            })
            const elapsed = performance.now() - start
            if (reply.status !== 401) return yield* Effect.dieMessage(`login: ${reply.status}`)
            return elapsed
          })
        for (let i = 0; i < 3; i++) yield* timed(account(ROUNDS + i))
        const wrong: Array<number> = []
        const unknown: Array<number> = []
        for (let i = 0; i < ROUNDS; i++) {
          wrong.push(yield* timed(account(i)))
          unknown.push(yield* timed(`nobody-${i}@example.com`))
        }
        const row = (label: string, values: ReadonlyArray<number>) =>
          console.log(
            `${label.padEnd(18)}${ms(Math.min(...values)).padStart(10)}${ms(median(values)).padStart(10)}`
          )
        console.log(`\n${ROUNDS} rounds each, alternating`)
        console.log(
          `${"login refused".padEnd(18)}${"fastest".padStart(10)}${"median".padStart(10)}`
        )
        row("wrong password", wrong)
        row("unknown user", unknown)
        const ratio = Math.min(...unknown) / Math.min(...wrong)
        console.log(
          `target unknown/wrong (fastest) ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? "met" : "NOT met"} (${ratio.toFixed(2)})`
        )
      })
    )
  )
