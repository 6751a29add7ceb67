/**
 * Customer object storage on loopback, speaking the real wire protocols so the AWS SDK
 * is exercised unchanged: an STS endpoint (Query protocol, XML answers) that checks the
 * caller's SigV4 signature and each role's external id, and an S3 front that checks the
 * SigV4 signature and session token of every request, refuses writes to read-only roles
 * with S3's `AccessDenied` error, and hands the rest to s3rver (an S3 server from npm).
 */
import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3"
import { Effect } from "effect"
import type { Scope } from "effect"

export interface FakeRole {
  readonly roleArn: string
  readonly externalId: string
}

export interface StorageFakes {
  /** The S3 endpoint the service is given (path-style addressing). */
  readonly s3Endpoint: string
  readonly stsEndpoint: string
  /** Requests signed for another region are refused, as S3 and STS do. */
  readonly region: string
  /** The service's own credentials: the only caller STS accepts. */
  readonly caller: { readonly accessKeyId: string; readonly secretAccessKey: string }
  /** `readOnly` may read but not write or delete objects. */
  readonly roles: { readonly readWrite: FakeRole; readonly readOnly: FakeRole }
  /** Two existing buckets; any other bucket name does not exist. */
  readonly buckets: { readonly data: string; readonly backups: string }
  /** Settings that point a sluice server at the fakes (give to `startServer`). */
  readonly env: Readonly<Record<string, string>>
  /** Every credential handed out or accepted so far: none may appear in an answer. */
  readonly secrets: () => ReadonlyArray<string>
  /** Object keys stored in `bucket`, read from the store directly. */
  readonly keys: (bucket: string) => Effect.Effect<ReadonlyArray<string>>
}

interface Issued {
  readonly secret: string
  readonly sessionToken: string
  readonly expires: number
  readonly readOnly: boolean
}

/** s3rver ships no types: the two parts of it used here. */
interface S3rverInstance {
  run(): Promise<AddressInfo>
  close(): Promise<void>
}
interface S3rverModule {
  new (options: object): S3rverInstance
}
interface S3rverAccounts {
  DUMMY_ACCOUNT: {
    createKeyPair(accessKeyId: string, secret: string): void
    revokeAccessKey(accessKeyId: string): void
  }
}
const require = createRequire(import.meta.url)
const S3rver: S3rverModule = require("s3rver")
// s3rver knows an access key only once it is in its account registry.
const s3rverAccounts: S3rverAccounts = require("s3rver/lib/models/account")

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex")
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest()
const token = (bytes: number) => randomBytes(bytes).toString("base64url")
const keyId = (prefix: string) =>
  prefix + randomBytes(10).toString("hex").toUpperCase().slice(0, 16)
const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

interface Signed {
  readonly accessKeyId: string
  readonly problem?: { readonly code: string; readonly message: string }
}

/**
 * Checks an `AWS4-HMAC-SHA256` Authorization header against the secret of its access key
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html).
 */
const checkSigV4 = (
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
  if (auth === null)
    return { accessKeyId: "", problem: { code: "AccessDenied", message: "Access Denied" } }
  const [, accessKeyId = "", date = "", signedRegion = "", signedService = "", names = "", given] =
    auth
  const secret = secretOf(accessKeyId)
  if (secret === undefined) return { accessKeyId, problem: { code: "", message: "" } }
  if (signedRegion !== region || signedService !== service)
    return {
      accessKeyId,
      problem: {
        code: "AuthorizationHeaderMalformed",
        message: `The authorization header is malformed; the region '${signedRegion}' is wrong; expecting '${region}'`
      }
    }
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
    return {
      accessKeyId,
      problem: {
        code: "XAmzContentSHA256Mismatch",
        message: "The provided 'x-amz-content-sha256' header does not match what was computed."
      }
    }
  const canonical = [request.method, rawPath, query, headers, names, payloadHash].join("\n")
  const scope = `${date}/${region}/${service}/aws4_request`
  const toSign = ["AWS4-HMAC-SHA256", request.headers["x-amz-date"], scope, sha256(canonical)].join(
    "\n"
  )
  const key = ["aws4_request"].reduce(
    (k, part) => hmac(k, part),
    hmac(hmac(hmac(`AWS4${secret}`, date), region), service)
  )
  return hmac(key, toSign).toString("hex") === given
    ? { accessKeyId }
    : {
        accessKeyId,
        problem: {
          code: "SignatureDoesNotMatch",
          message:
            "The request signature we calculated does not match the signature you provided. Check your key and signing method."
        }
      }
}

const readBody = (request: http.IncomingMessage) =>
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

const stsXmlns = "https://sts.amazonaws.com/doc/2011-06-15/"

interface StsSetup {
  readonly region: string
  readonly caller: StorageFakes["caller"]
  readonly roles: StorageFakes["roles"]
  readonly issue: (readOnly: boolean) => { readonly accessKeyId: string } & Issued
}

/** STS: AssumeRole only, in the Query protocol with XML answers. */
const stsHandler =
  (sts: StsSetup) => async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const body = await readBody(request)
    const requestId = randomUUID()
    const answer = (status: number, xml: string) => {
      response.writeHead(status, { "content-type": "text/xml", "x-amzn-requestid": requestId })
      response.end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`)
    }
    const fail = (status: number, code: string, message: string) =>
      answer(
        status,
        `<ErrorResponse xmlns="${stsXmlns}"><Error><Type>Sender</Type><Code>${code}</Code>` +
          `<Message>${escapeXml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`
      )
    const signed = checkSigV4(request, body, "sts", sts.region, (id) =>
      id === sts.caller.accessKeyId ? sts.caller.secretAccessKey : undefined
    )
    if (signed.problem?.code === "")
      return fail(
        403,
        "InvalidClientTokenId",
        "The security token included in the request is invalid."
      )
    if (signed.problem !== undefined) return fail(403, signed.problem.code, signed.problem.message)
    const form = new URLSearchParams(body.toString("utf8"))
    if (request.method !== "POST" || form.get("Action") !== "AssumeRole")
      return fail(400, "InvalidAction", `Could not find operation ${form.get("Action") ?? ""}`)
    if (form.get("Version") !== "2011-06-15")
      return fail(400, "InvalidParameterValue", "Unsupported API version")
    const roleArn = form.get("RoleArn") ?? ""
    const sessionName = form.get("RoleSessionName") ?? ""
    if (!/^[\w+=,.@-]{2,64}$/.test(sessionName))
      return fail(400, "ValidationError", "Value at 'roleSessionName' failed to satisfy constraint")
    const role = Object.values(sts.roles).find((r) => r.roleArn === roleArn)
    // A wrong external id and an unknown role look alike to the caller, as on AWS.
    if (role === undefined || form.get("ExternalId") !== role.externalId)
      return fail(
        403,
        "AccessDenied",
        `User: arn:aws:iam::123456789012:user/sluice-service is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`
      )
    const issued = sts.issue(role === sts.roles.readOnly)
    const assumed = roleArn.replace(":iam:", ":sts:").replace(":role/", ":assumed-role/")
    answer(
      200,
      `<AssumeRoleResponse xmlns="${stsXmlns}"><AssumeRoleResult><AssumedRoleUser>` +
        `<Arn>${escapeXml(`${assumed}/${sessionName}`)}</Arn>` +
        `<AssumedRoleId>${keyId("AROA")}:${sessionName}</AssumedRoleId></AssumedRoleUser>` +
        `<Credentials><AccessKeyId>${issued.accessKeyId}</AccessKeyId>` +
        `<SecretAccessKey>${issued.secret}</SecretAccessKey>` +
        `<SessionToken>${issued.sessionToken}</SessionToken>` +
        `<Expiration>${new Date(issued.expires).toISOString()}</Expiration></Credentials>` +
        `</AssumeRoleResult><ResponseMetadata><RequestId>${requestId}</RequestId>` +
        `</ResponseMetadata></AssumeRoleResponse>`
    )
  }

/** S3 in front of s3rver: authentication and the read-only role's missing write grant. */
const s3Handler =
  (region: string, issued: ReadonlyMap<string, Issued>, s3rverUrl: string) =>
  async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const body = await readBody(request)
    const fail = (status: number, code: string, message: string) => {
      const requestId = randomBytes(8).toString("hex").toUpperCase()
      response.writeHead(status, {
        "content-type": "application/xml",
        "x-amz-request-id": requestId
      })
      response.end(
        request.method === "HEAD"
          ? undefined
          : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code>` +
              `<Message>${escapeXml(message)}</Message><RequestId>${requestId}</RequestId>` +
              `<HostId>${token(24)}</HostId></Error>`
      )
    }
    const signed = checkSigV4(request, body, "s3", region, (id) => issued.get(id)?.secret)
    const grant = issued.get(signed.accessKeyId)
    if (grant === undefined || signed.problem?.code === "")
      return fail(
        403,
        "InvalidAccessKeyId",
        "The AWS Access Key Id you provided does not exist in our records."
      )
    if (signed.problem !== undefined) return fail(403, signed.problem.code, signed.problem.message)
    if (request.headers["x-amz-security-token"] !== grant.sessionToken)
      return fail(400, "InvalidToken", "The provided token is malformed or otherwise invalid.")
    if (Date.now() > grant.expires)
      return fail(400, "ExpiredToken", "The provided token has expired.")
    if (grant.readOnly && request.method !== "GET" && request.method !== "HEAD")
      return fail(403, "AccessDenied", "Access Denied")
    const upstream = http.request(
      `${s3rverUrl}${request.url ?? "/"}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      }
    )
    upstream.on("error", () => fail(502, "InternalError", "We encountered an internal error."))
    upstream.end(body)
  }

const serve = (handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>) =>
  listen(
    http.createServer((req, res) => {
      handler(req, res).catch(() => res.destroy())
    })
  )

/** Both fakes and s3rver, closed (and s3rver's directory removed) with the scope. */
export const startStorageFakes = (): Effect.Effect<StorageFakes, never, Scope.Scope> =>
  Effect.gen(function* () {
    const region = "eu-central-1"
    const buckets = { data: "customer-data", backups: "customer-backups" }
    const directory = yield* Effect.acquireRelease(
      Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sluice-s3rver-"))),
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    )
    const s3rver = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory,
      configureBuckets: Object.values(buckets).map((name) => ({ name }))
    })
    const address = yield* Effect.acquireRelease(
      Effect.promise(() => s3rver.run()),
      () => Effect.promise(() => s3rver.close())
    )
    const s3rverUrl = `http://127.0.0.1:${address.port}`

    const issued = new Map<string, Issued>()
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        for (const id of issued.keys()) s3rverAccounts.DUMMY_ACCOUNT.revokeAccessKey(id)
      })
    )
    const issue = (readOnly: boolean) => {
      const accessKeyId = keyId("ASIA")
      const grant = {
        secret: token(30),
        sessionToken: token(96),
        expires: Date.now() + 900_000,
        readOnly
      }
      issued.set(accessKeyId, grant)
      s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(accessKeyId, grant.secret)
      return { accessKeyId, ...grant }
    }

    const caller = { accessKeyId: keyId("AKIA"), secretAccessKey: token(30) }
    const roles = {
      readWrite: {
        roleArn: "arn:aws:iam::111122223333:role/sluice-storage",
        externalId: `ext-${token(9)}`
      },
      readOnly: {
        roleArn: "arn:aws:iam::111122223333:role/sluice-storage-readonly",
        externalId: `ext-${token(9)}`
      }
    }
    const stsEndpoint = yield* serve(stsHandler({ region, caller, roles, issue }))
    const s3Endpoint = yield* serve(s3Handler(region, issued, s3rverUrl))

    // Straight to s3rver with its built-in key, past the front's checks.
    const direct = new S3Client({
      endpoint: s3rverUrl,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }
    })
    yield* Effect.addFinalizer(() => Effect.sync(() => direct.destroy()))
    const keys = (bucket: string) =>
      Effect.promise(() => direct.send(new ListObjectsV2Command({ Bucket: bucket }))).pipe(
        Effect.map((listing) =>
          (listing.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [o.Key]))
        )
      )

    return {
      s3Endpoint,
      stsEndpoint,
      region,
      caller,
      roles,
      buckets,
      env: {
        SLUICE_S3_ENDPOINT: s3Endpoint,
        SLUICE_STS_ENDPOINT: stsEndpoint,
        SLUICE_S3_REGION: region,
        SLUICE_S3_FORCE_PATH_STYLE: "true",
        AWS_ACCESS_KEY_ID: caller.accessKeyId,
        AWS_SECRET_ACCESS_KEY: caller.secretAccessKey
      },
      secrets: () => [
        caller.accessKeyId,
        caller.secretAccessKey,
        ...[...issued].flatMap(([id, grant]) => [id, grant.secret, grant.sessionToken])
      ],
      keys
    }
  })
