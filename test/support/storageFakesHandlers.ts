/**
 * The two fake AWS endpoints: STS (Query protocol, XML answers) that checks the caller's
 * signature and each role's external id, and an S3 front that checks signatures and
 * session tokens, refuses writes of read-only roles with S3's `AccessDenied`, and passes
 * the rest to s3rver.
 */
import { randomBytes, randomUUID } from "node:crypto"
import * as http from "node:http"
import { checkSigV4, escapeXml, keyId, readBody, token } from "./storageFakesWire.js"

export interface FakeRole {
  readonly roleArn: string
  readonly externalId: string
}

export interface Issued {
  readonly secret: string
  readonly sessionToken: string
  readonly expires: number
  readonly readOnly: boolean
}

const stsXmlns = "https://sts.amazonaws.com/doc/2011-06-15/"

export interface StsSetup {
  readonly region: string
  readonly caller: { readonly accessKeyId: string; readonly secretAccessKey: string }
  readonly roles: { readonly readWrite: FakeRole; readonly readOnly: FakeRole }
  readonly issue: (readOnly: boolean) => { readonly accessKeyId: string } & Issued
}

/** STS: AssumeRole only, in the Query protocol with XML answers. */
export const stsHandler =
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
    if (signed._tag === "UnknownKey")
      return fail(
        403,
        "InvalidClientTokenId",
        "The security token included in the request is invalid."
      )
    if (signed._tag === "Refused") return fail(403, signed.code, signed.message)
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
export const s3Handler =
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
    if (signed._tag === "Refused") return fail(403, signed.code, signed.message)
    const grant = signed._tag === "Valid" ? issued.get(signed.accessKeyId) : undefined
    if (grant === undefined)
      return fail(
        403,
        "InvalidAccessKeyId",
        "The AWS Access Key Id you provided does not exist in our records."
      )
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
