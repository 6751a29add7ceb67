/**
 * A minimal OpenID Connect issuer on loopback: discovery document and JWKS (ES256), and
 * a signer for access tokens. Real HTTP, real keys; only the login UI is missing.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Context, Effect, Layer } from "effect"
import { SignJWT, exportJWK, generateKeyPair } from "jose"
import type { JWTPayload } from "jose"

export interface OidcIssuerShape {
  readonly issuer: string
  readonly sign: (claims: JWTPayload, options?: { readonly expiresIn?: string }) => Promise<string>
  /** A signer with a key the issuer never published. */
  readonly signWithForeignKey: (claims: JWTPayload) => Promise<string>
}

export class OidcIssuer extends Context.Tag("test/OidcIssuer")<OidcIssuer, OidcIssuerShape>() {
  static readonly layer = Layer.scoped(
    OidcIssuer,
    Effect.gen(function* () {
      const keys = yield* Effect.promise(() => generateKeyPair("ES256"))
      const foreign = yield* Effect.promise(() => generateKeyPair("ES256"))
      const jwk = {
        ...(yield* Effect.promise(() => exportJWK(keys.publicKey))),
        kid: "k1",
        alg: "ES256",
        use: "sig"
      }
      const server = createServer()
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => {
          server.listen(0, "127.0.0.1", () => resume(Effect.void))
        }),
        () =>
          Effect.async<void>((resume) => {
            server.closeAllConnections()
            server.close(() => resume(Effect.void))
          })
      )
      const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      server.on("request", (req, res) => {
        res.setHeader("content-type", "application/json")
        if (req.url === "/.well-known/openid-configuration") {
          res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }))
        } else if (req.url === "/jwks") {
          res.end(JSON.stringify({ keys: [jwk] }))
        } else {
          res.statusCode = 404
          res.end("{}")
        }
      })
      const sign =
        (key: Parameters<SignJWT["sign"]>[0], kid: string) =>
        (claims: JWTPayload, options?: { readonly expiresIn?: string }) =>
          new SignJWT(claims)
            .setProtectedHeader({ alg: "ES256", kid })
            .setIssuer(issuer)
            .setIssuedAt()
            .setExpirationTime(options?.expiresIn ?? "5m")
            .sign(key)
      return {
        issuer,
        sign: sign(keys.privateKey, "k1"),
        signWithForeignKey: sign(foreign.privateKey, "k1")
      }
    })
  )
}
