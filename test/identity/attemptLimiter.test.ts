/**
 * The sign-in throttle's counting under `TestClock`, and the client address it keys on
 * (the socket's peer unless the proxy in front is trusted; an IPv6 client by its /64).
 */
import { HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, TestClock } from "effect"
import { TooManyRequests } from "../../domain/Errors.js"
import { makeAttemptLimiter } from "../../src/identity/AttemptLimiter.js"
import type { LimitedKey } from "../../src/identity/AttemptLimiter.js"
import { addressKey, clientAddress } from "../../src/identity/http/ClientAddress.js"

const refused = (retryAfterSeconds: number) =>
  new TooManyRequests({ message: "slow down", retryAfterSeconds })
const account: LimitedKey = ["account:a@example.com", { attempts: 3, windowSeconds: 60 }]
const address: LimitedKey = ["address:192.0.2.1", { attempts: 5, windowSeconds: 120 }]
const otherAccount: LimitedKey = ["account:b@example.com", account[1]]

const allowed = (effect: Effect.Effect<void, TooManyRequests>) =>
  Effect.map(Effect.exit(effect), Exit.isSuccess)

describe("attempt limiter", () => {
  it.effect("refuses a spent key until its window ends, with the seconds left", () =>
    Effect.gen(function* () {
      const limiter = makeAttemptLimiter(refused)
      for (let i = 0; i < 3; i++)
        expect(yield* allowed(limiter.take([account, address]))).toBe(true)
      expect(yield* Effect.flip(limiter.take([account, address]))).toMatchObject({
        retryAfterSeconds: 60
      })
      yield* TestClock.adjust("45 seconds")
      expect(yield* Effect.flip(limiter.take([account, address]))).toMatchObject({
        retryAfterSeconds: 15
      })
      // The address has two attempts left for another account: a refusal counts nothing.
      expect(yield* allowed(limiter.take([otherAccount, address]))).toBe(true)
      expect(yield* allowed(limiter.take([otherAccount, address]))).toBe(true)
      expect(yield* Effect.flip(limiter.take([otherAccount, address]))).toMatchObject({
        retryAfterSeconds: 75
      })
      yield* TestClock.adjust("15 seconds")
      // The account's window is over, the address's is not.
      expect(yield* allowed(limiter.take([account]))).toBe(true)
      expect(yield* allowed(limiter.take([account, address]))).toBe(false)
      yield* TestClock.adjust("60 seconds")
      expect(yield* allowed(limiter.take([account, address]))).toBe(true)
    })
  )

  it.effect("attempts given back (they succeeded) do not count", () =>
    Effect.gen(function* () {
      const limiter = makeAttemptLimiter(refused)
      for (let i = 0; i < 50; i++) {
        yield* limiter.take([account, address])
        yield* limiter.giveBack([account, address])
      }
      for (let i = 0; i < 3; i++) expect(yield* allowed(limiter.take([account]))).toBe(true)
      expect(yield* allowed(limiter.take([account]))).toBe(false)
    })
  )

  it.effect("holds at most its number of keys, dropping the oldest", () =>
    Effect.gen(function* () {
      const limiter = makeAttemptLimiter(refused, 2)
      const one: LimitedKey = ["one", { attempts: 1, windowSeconds: 60 }]
      yield* limiter.take([one])
      expect(yield* allowed(limiter.take([one]))).toBe(false)
      yield* limiter.take([["two", one[1]]])
      yield* limiter.take([["three", one[1]]])
      expect(yield* allowed(limiter.take([one]))).toBe(true)
    })
  )
})

const request = (remote: string, headers: Record<string, string> = {}) =>
  HttpServerRequest.fromWeb(new Request("http://sluice.test/v1/auth/login", { headers })).modify({
    remoteAddress: remote
  })

describe("client address", () => {
  it("is the socket's peer; X-Forwarded-For only counts behind a trusted proxy", () => {
    const forwarded = request("10.0.0.7", { "x-forwarded-for": "203.0.113.9, 198.51.100.4" })
    expect(clientAddress(forwarded, false)).toBe("10.0.0.7")
    // Behind a trusted proxy, the entry that proxy appended; the others are the client's word.
    expect(clientAddress(forwarded, true)).toBe("198.51.100.4")
    expect(clientAddress(request("10.0.0.7"), true)).toBe("10.0.0.7")
  })

  it("keys IPv4-mapped addresses as IPv4 and IPv6 by its /64", () => {
    expect(addressKey("::ffff:127.0.0.1")).toBe("127.0.0.1")
    expect(addressKey("2001:db8:0:1::5")).toBe("2001:db8:0:1::/64")
    expect(addressKey("2001:0db8:0000:0001:ffff::9")).toBe("2001:db8:0:1::/64")
    expect(addressKey("[2001:db8:0:1:2:3:4:5]")).toBe("2001:db8:0:1::/64")
    expect(addressKey("::1")).toBe("0:0:0:0::/64")
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64")
  })
})
