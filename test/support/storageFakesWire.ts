/**
 * Wire-level pieces of the storage fakes: AWS Signature Version 4 checking, XML escaping
 * and small HTTP servers on loopback bound to a scope.
 */
import { createHash, createHmac, randomBytes } from "node:crypto"
import type * as http from "node:http"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

export const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex")
export const hmac = (key: string | Buffer, data: string) =>
  createHmac("sha256", key).update(data).digest()
export const token = (bytes: number) => randomBytes(bytes).toString("base64url")
export const keyId = (prefix: string) =>
  prefix + randomBytes(10).toString("hex").toUpperCase().slice(0, 16)
export const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
export const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** A request's signature: valid for a known key, of an unknown key, or refused with S3/STS's code. */
export type Signed =
  | { readonly _tag: "Valid"; readonly accessKeyId: string }
  | { readonly _tag: "UnknownKey" }
  | { readonly _tag: "Refused"; readonly code: string; readonly message: string }

const refused = (code: string, message: string): Signed => ({ _tag: "Refused", code, message })

/**
 * Checks an `AWS4-HMAC-SHA256` Authorization header against the secret of its access key
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html).
 */
export const checkSigV4 = (
  request: http.IncomingMessage,
  body: Buffer,
  service: "s3" | "sts",
  region: string,
  secretOf: (accessKeyId: string) => string | undefined
): Signed => {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      request.headers.authorization ?? ""
    )
  if (auth === null) return refused("AccessDenied", "Access Denied")
  const [, accessKeyId = "", date = "", signedRegion = "", signedService = "", names = "", given] =
    auth
  const secret = secretOf(accessKeyId)
  if (secret === undefined) return { _tag: "UnknownKey" }
  if (signedRegion !== region || signedService !== service)
    return refused(
      "AuthorizationHeaderMalformed",
      `The authorization header is malformed; the region '${signedRegion}' is wrong; expecting '${region}'`
    )
  const [rawPath = "/", rawQuery = ""] = (request.url ?? "/").split("?", 2)
  const query = rawQuery
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const [k = "", v = ""] = pair
        .split("=", 2)
        .map((s) => decodeURIComponent(s.replace(/\+/g, " ")))
      return [rfc3986(k), rfc3986(v)] as const
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&")
  const headers = names
    .split(";")
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`
    )
    .join("")
  const declared = request.headers["x-amz-content-sha256"]
  const payloadHash = declared === "UNSIGNED-PAYLOAD" ? declared : sha256(body)
  if (typeof declared === "string" && declared !== payloadHash)
    return refused(
      "XAmzContentSHA256Mismatch",
      "The provided 'x-amz-content-sha256' header does not match what was computed."
    )
  const canonical = [request.method, rawPath, query, headers, names, payloadHash].join("\n")
  const scope = `${date}/${region}/${service}/aws4_request`
  const toSign = ["AWS4-HMAC-SHA256", request.headers["x-amz-date"], scope, sha256(canonical)].join(
    "\n"
  )
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), "aws4_request")
  return hmac(key, toSign).toString("hex") === given
    ? { _tag: "Valid", accessKeyId }
    : refused(
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided. Check your key and signing method."
      )
}

export const readBody = (request: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks)))
    request.on("error", reject)
  })

const listen = (server: http.Server) =>
  Effect.acquireRelease(
    Effect.async<string>((resume) => {
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
      )
    }),
    () =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

/** An HTTP server on a free loopback port, closed with the scope; resolves to its URL. */
export const serve = (
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>
) =>
  listen(
    createServer((req, res) => {
      handler(req, res).catch(() => res.destroy())
    })
  )
