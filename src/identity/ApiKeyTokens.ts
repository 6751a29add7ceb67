/**
 * API key tokens: `rt_` + 32 random bytes (base64url). Only an HMAC-SHA256 of the
 * token, keyed with the service pepper, is stored; a stolen control-plane dump alone
 * does not let anyone authenticate.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Effect, Redacted } from "effect"
import { ServiceSecrets } from "./ServiceSecrets.js"

export const TOKEN_PREFIX = "rt_"
const TOKEN_PATTERN = /^rt_[A-Za-z0-9_-]{43}$/

/** Whether a string has the shape of a token (says nothing about validity). */
export const looksLikeToken = (value: string) => TOKEN_PATTERN.test(value)

/** The masked form listings show: `rt_***` and the last four characters. */
export const tokenHint = (token: string) => `${TOKEN_PREFIX}***${token.slice(-4)}`

export class ApiKeyTokens extends Effect.Service<ApiKeyTokens>()("sluice/ApiKeyTokens", {
  effect: Effect.gen(function* () {
    const secrets = yield* ServiceSecrets
    const digest = (token: string) =>
      createHmac("sha256", Redacted.value(secrets.keyPepper)).update(token).digest()
    return {
      generate: () => Redacted.make(TOKEN_PREFIX + randomBytes(32).toString("base64url")),
      digest,
      /** Constant-time comparison of a presented token's digest against a stored one. */
      matches: (presented: Uint8Array, stored: Uint8Array) =>
        presented.length === stored.length && timingSafeEqual(presented, stored)
    }
  })
}) {}
