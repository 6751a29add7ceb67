/**
 * The hostile inputs of `test/http/hostile.test.ts`, drawn from a seeded generator so a
 * failure replays exactly: malformed bodies (binary junk, truncated JSON, deep nesting,
 * huge keys, NUL bytes, wrong and multipart content types, bad encodings, gzip bombs),
 * hostile path and query values (traversal, huge, bad percent-encoding, unicode,
 * SQL-ish). Everything is bytes and ASCII header values, as a socket would carry them.
 */
import { gzipSync } from "node:zlib"

/** mulberry32: small, fast and the same on every machine. */
export const prng = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <A>(items: ReadonlyArray<A>): A => items[int(items.length)]!
  return { next, int, pick }
}
export type Prng = ReturnType<typeof prng>

export interface HostileBody {
  readonly kind: string
  readonly bytes: Uint8Array
  readonly headers: Readonly<Record<string, string>>
}

const utf8 = (text: string) => new TextEncoder().encode(text)
const json = { "content-type": "application/json" }

const DEPTH = 20_000
const deepArray = utf8("[".repeat(DEPTH) + "]".repeat(DEPTH))
const deepObject = utf8('{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH))
const deepRecords = utf8(`[{"ok":1},${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}]`)
const hugeKey = utf8(`{"${"k".repeat(200_000)}":1}`)
// Bombs inflate past every body limit (inserts here 4 MiB; OTLP and HEC 100 MiB): each
// endpoint must stop at its limit. One of zeros, one of valid NDJSON records.
const BOMB_BYTES = 128 * 1024 * 1024
const zerosBomb = gzipSync(Buffer.alloc(BOMB_BYTES))
const recordsBomb = gzipSync(
  Buffer.alloc(BOMB_BYTES, '{"bomb":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}\n')
)

/** Plausible bodies of every kind of endpoint, to be cut, wrapped or mistyped. */
const SAMPLES = [
  '{"sql":"SELECT 1","format":"JSON","query_id":"q-1"}',
  '{"email":"admin@localhost","password":"not-the-password"}',
  '{"name":"analytics","permission":"read_write","database":"default"}',
  '{"name":"c1","replicas":1,"size":{"cpu_cores":2,"memory_gib":8},"idle_timeout_minutes":60}',
  '{"spl":"search index=main | stats count by host","earliest":"-1h","latest":"now"}',
  '[{"service":"api","ms":12},{"service":"web","ms":40}]',
  '{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[{"traceId":"00"}]}]}]}',
  '{"messageType":"DATA_MESSAGE","logGroup":"g","logEvents":[{"id":"1","timestamp":1,"message":"m"}]}',
  '{"requestId":"r","timestamp":1,"records":[{"data":"bm90IGpzb24="}]}',
  '{"time":1767225600,"host":"web-1","event":{"message":"GET /"}}'
]

const junk = (r: Prng, size: number) => {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = r.int(256)
  return bytes
}

const multipart = (r: Prng): HostileBody => {
  const boundary = `b${r.int(1e9)}`
  const variants = [
    `--${boundary}\r\nContent-Disposition: form-data; name="sql"\r\n\r\nSELECT 1\r\n--${boundary}--\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="../../x.json"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--${boundary}--\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="sql"\r\n\r\nSELECT 1`,
    "",
    "not multipart at all"
  ]
  const withBoundary = r.next() < 0.8
  return {
    kind: "multipart",
    bytes: utf8(r.pick(variants)),
    headers: {
      "content-type": withBoundary
        ? `multipart/form-data; boundary=${boundary}`
        : "multipart/form-data"
    }
  }
}

/** One malformed (or mistyped) body. */
export const hostileBody = (r: Prng): HostileBody => {
  const sample = r.pick(SAMPLES)
  switch (r.int(14)) {
    case 0:
      return { kind: "binary junk", bytes: junk(r, 1 + r.int(4096)), headers: json }
    case 1:
      return {
        kind: "truncated JSON",
        bytes: utf8(sample.slice(0, r.int(sample.length))),
        headers: json
      }
    case 2:
      return {
        kind: "deep nesting",
        bytes: r.pick([deepArray, deepObject, deepRecords]),
        headers: json
      }
    case 3:
      return { kind: "huge key", bytes: hugeKey, headers: json }
    case 4: {
      const at = r.int(sample.length)
      const text = `${sample.slice(0, at)}\u0000${sample.slice(at)}`
      return { kind: "NUL byte", bytes: utf8(text), headers: json }
    }
    case 5:
      return multipart(r)
    case 6: {
      const type = r.pick([
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/xml",
        "application/octet-stream",
        "image/png",
        "application/json; charset=utf-16",
        "application/x-protobuf",
        ";;;",
        "application/json/../xml"
      ])
      const body = type.includes("form") ? "name=x&sql=SELECT+1&email=a%40b&password=p" : sample
      return {
        kind: `wrong content type ${type}`,
        bytes: utf8(body),
        headers: { "content-type": type }
      }
    }
    case 7: {
      // A valid-looking document with bytes that are not UTF-8 inside a string.
      const bytes = utf8(`{"name":"xx","sql":"SELECT 'xx'"}`)
      bytes[10] = 0xff
      bytes[11] = 0xc0
      return { kind: "invalid UTF-8", bytes, headers: json }
    }
    case 8: {
      const encoding = r.pick([
        "gzip",
        "zstd",
        "br",
        "deflate",
        "x-unknown",
        "gzip, gzip",
        "identity;q=0"
      ])
      return {
        kind: `wrong content-encoding ${encoding}`,
        bytes: utf8(sample),
        headers: { ...json, "content-encoding": encoding }
      }
    }
    case 9: {
      // Rare: a bomb costs the server a limit's worth of inflating.
      const gzip = { ...json, "content-encoding": "gzip" }
      if (r.next() >= 0.3) return { kind: "garbage gzip", bytes: junk(r, 64), headers: gzip }
      return r.next() < 0.5
        ? { kind: "gzip bomb of zeros", bytes: zerosBomb, headers: gzip }
        : { kind: "gzip bomb of records", bytes: recordsBomb, headers: gzip }
    }
    case 10: {
      const body = r.pick([
        "null",
        "[]",
        '"a string"',
        "1e999",
        "-0",
        "[1,2,3]",
        '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
        '{"name":{"$gt":""},"sql":["SELECT 1"]}',
        '{"name":"a","name":"b"}',
        "\ufeff{}",
        "{}{}",
        '{"records":"'.concat("A".repeat(70_000), '"}')
      ])
      return { kind: "mistyped JSON", bytes: utf8(body), headers: json }
    }
    case 11:
      return { kind: "empty body", bytes: new Uint8Array(0), headers: r.next() < 0.5 ? json : {} }
    case 12: {
      const ndjson = `${sample}\n{"broken": \n\u0000\n`
      return {
        kind: "broken NDJSON",
        bytes: utf8(ndjson),
        headers: { "content-type": "application/x-ndjson" }
      }
    }
    default:
      return {
        kind: "garbage gzip",
        bytes: junk(r, 64),
        headers: { ...json, "content-encoding": "gzip" }
      }
  }
}

/** A hostile value for a path segment or query parameter, already fit for a URL. */
export const hostileValue = (r: Prng): string =>
  r.pick([
    "..%2F..%2F..%2Fetc%2Fpasswd",
    "../../etc/passwd",
    "..",
    ".%2e",
    "%00",
    "a%00b",
    "%zz",
    "%E0%A4%A",
    "%C0%AF",
    "%",
    "%%",
    "%25",
    "%ED%A0%80",
    encodeURIComponent("日本語テーブル"),
    encodeURIComponent("😀"),
    encodeURIComponent("\u202eevil"),
    "x".repeat(4_000),
    encodeURIComponent("'; DROP TABLE target; --"),
    encodeURIComponent("1 OR 1=1"),
    encodeURIComponent("default.target"),
    encodeURIComponent("system.processes"),
    encodeURIComponent("`x`"),
    encodeURIComponent('"x"'),
    encodeURIComponent("a\\b"),
    "-1",
    "0",
    "99999999999999999999999",
    "1e309",
    "NaN",
    "true",
    "00000000-0000-0000-0000-000000000000",
    "rt_" + "A".repeat(43),
    "",
    "%20",
    "+",
    "file%3A%2F%2F%2Fetc%2Fpasswd",
    "http%3A%2F%2F169.254.169.254%2Flatest%2Fmeta-data",
    "http%3A%2F%2F127.0.0.1%3A1%2Fx.json"
  ])

const PARAMETERS = [
  "database",
  "organization",
  "cluster",
  "transform",
  "url",
  "limit",
  "offset",
  "cursor",
  "start_time",
  "end_time",
  "levels",
  "query_id",
  "insert_deduplication_token",
  "columns",
  "search",
  "channel",
  "index",
  "__proto__",
  "a[b]"
]

/** A query string of one to three hostile parameters (sometimes repeated). */
export const hostileQuery = (r: Prng): string => {
  const count = 1 + r.int(3)
  const parts: Array<string> = []
  for (let i = 0; i < count; i++) parts.push(`${r.pick(PARAMETERS)}=${hostileValue(r)}`)
  if (r.next() < 0.1) parts.push(parts[0]!)
  return `?${parts.join("&")}`
}
