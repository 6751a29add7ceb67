/**
 * The token of a collector request's `Authorization` header: `Splunk <token>`,
 * `Bearer <token>`, or Basic with the token as the password and any
 * user name (`curl -u x:<token>`). Anything else, such as a bare token, is malformed
 * (the protocol's code 3), and no header at all is code 2.
 */
export type HeaderCredential =
  | { readonly _tag: "missing" }
  | { readonly _tag: "malformed" }
  | { readonly _tag: "token"; readonly token: string }

const SCHEME = /^(\S+)\s+(\S+)\s*$/
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

const token = (value: string): HeaderCredential =>
  value === "" ? { _tag: "malformed" } : { _tag: "token", token: value }

export const credentialOf = (header: string | undefined): HeaderCredential => {
  if (header === undefined || header.trim() === "") return { _tag: "missing" }
  const parts = SCHEME.exec(header.trim())
  if (parts === null) return { _tag: "malformed" }
  const value = parts[2] ?? ""
  switch (parts[1]?.toLowerCase()) {
    case "splunk":
    case "bearer":
      return token(value)
    case "basic": {
      if (!BASE64.test(value)) return { _tag: "malformed" }
      const decoded = Buffer.from(value, "base64").toString("utf8")
      const colon = decoded.indexOf(":")
      return colon === -1 ? { _tag: "malformed" } : token(decoded.slice(colon + 1))
    }
    default:
      return { _tag: "malformed" }
  }
}
