/** What the request log keeps of bodies and query strings (pure functions). */
import { describe, expect, it } from "@effect/vitest"
import {
  redactBody,
  redactHeaders,
  redactQuery,
  redactText
} from "../../src/requestlog/Redaction.js"

const key = "rt_" + "A1b2C3d4".repeat(5)
// A session token's shape: base64url JSON header and payload, then a signature.
const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJlLWJ5dGVz-_x"

describe("redaction", () => {
  it("JSON bodies: secret-named fields at any depth, and API keys anywhere", () => {
    const body = JSON.stringify({
      email: "a@b.c",
      password: "pw-1",
      list: [{ apiKey: "k-2" }, { note: `key ${key}` }],
      auth: { Authorization: "Bearer x-3", refresh_token: "t-4", sql: "SELECT 1" }
    })
    const kept = redactBody(body)
    for (const secret of ["pw-1", "k-2", key, "x-3", "t-4"]) expect(kept).not.toContain(secret)
    expect(JSON.parse(kept)).toEqual({
      email: "a@b.c",
      password: "[REDACTED]",
      list: [{ apiKey: "[REDACTED]" }, { note: "key rt_[REDACTED]" }],
      auth: { Authorization: "[REDACTED]", refresh_token: "[REDACTED]", sql: "SELECT 1" }
    })
  })

  it("NDJSON line by line, form bodies and loose text", () => {
    expect(redactBody('{"a":1,"secret":"s-1"}\n{"token":"t-2"}\n')).toBe(
      '{"a":1,"secret":"[REDACTED]"}\n{"token":"[REDACTED]"}\n'
    )
    expect(redactBody("user=bob&password=hunter2&x=1")).toBe("user=bob&password=[REDACTED]&x=1")
    const loose = redactBody(`{"password": "p-3", broken ${key}`)
    expect(loose).not.toContain("p-3")
    expect(loose).not.toContain(key)
  })

  it("query strings: secret-named parameters, keys, and credentials inside URLs", () => {
    expect(redactQuery("")).toBeNull()
    expect(redactQuery(`database=logs&token=abc&q=${key}`)).toBe(
      "database=logs&token=%5BREDACTED%5D&q=rt_%5BREDACTED%5D"
    )
    const url = encodeURIComponent(
      "https://user:pw-9@files.example.com/a.json?X-Amz-Signature=sig-8&X-Amz-Credential=c-7&part=1"
    )
    const kept = decodeURIComponent(redactQuery(`url=${url}`) ?? "")
    for (const secret of ["pw-9", "sig-8", "c-7"]) expect(kept).not.toContain(secret)
    expect(kept).toContain("files.example.com/a.json")
    expect(kept).toContain("part=1")
  })

  it("headers: credentials and secret-named headers replaced, keys in values, long values cut", () => {
    expect(
      redactHeaders({
        authorization: `Bearer ${key}`,
        Cookie: "session=abc",
        "x-amz-firehose-access-key": "fh-1",
        "x-api-key": "k-5",
        "x-service-client": "cli",
        "x-note": `pasted ${key}`,
        "x-long": "a".repeat(2000),
        "x-absent": undefined
      })
    ).toEqual({
      authorization: "[REDACTED]",
      Cookie: "[REDACTED]",
      "x-amz-firehose-access-key": "[REDACTED]",
      "x-api-key": "[REDACTED]",
      "x-service-client": "cli",
      "x-note": "pasted rt_[REDACTED]",
      "x-long": "a".repeat(1024)
    })
  })

  it("any text: keys and session tokens, plain or percent-encoded; other text as sent", () => {
    expect(redactText(`/v1/keys/${key}`)).toBe("/v1/keys/rt_[REDACTED]")
    expect(redactText(`/v1/keys/%72t_${key.slice(3)}`)).toBe("/v1/keys/rt_[REDACTED]")
    expect(redactText(`/v1/tables/${jwt}`)).toBe("/v1/tables/[REDACTED]")
    expect(redactText("/v1/tables/a%20b?x=100%")).toBe("/v1/tables/a%20b?x=100%")
    expect(redactText("eyJ alone is no token")).toBe("eyJ alone is no token")
  })

  it("session tokens in SQL literals, custom headers, query strings and names", () => {
    expect(JSON.parse(redactBody(JSON.stringify({ sql: `SELECT '${jwt}'` })))).toEqual({
      sql: "SELECT '[REDACTED]'"
    })
    expect(redactBody(JSON.stringify({ [key]: 1 }))).toBe('{"rt_[REDACTED]":1}')
    expect(redactHeaders({ "x-session": jwt, [key]: "1" })).toEqual({
      "x-session": "[REDACTED]",
      "rt_[REDACTED]": "1"
    })
    expect(redactQuery(`q=${jwt}`)).toBe("q=%5BREDACTED%5D")
    expect(redactBody(`form=${encodeURIComponent(jwt)}&n=1`)).toBe("form=[REDACTED]&n=1")
  })
})
