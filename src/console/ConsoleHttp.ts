/**
 * The web console at `/`: its page for every path that is not the API's (the console's
 * own links, `/{organization}/{cluster}/sql?database=…`), and its content-hashed assets
 * under `/assets/`, cached for a year. Every answer carries a policy that lets the page
 * run only its own scripts and styles, talk only to this origin, and never be framed.
 */
import {
  HttpApiBuilder,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { gzipSync } from "node:zlib"
import { buildConsole } from "./ConsoleBuild.js"

interface Asset {
  readonly body: Uint8Array
  readonly gzipped: Uint8Array
  readonly contentType: string
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2"
}

const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

const SECURITY_HEADERS = {
  "content-security-policy": POLICY,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin"
}

// The API's own path prefixes: an unknown path under them stays the API's 404.
const API_PREFIXES = ["/v1", "/otlp", "/metrics-compat", "/services", "/health"]

const assetOf = (file: string): Asset => {
  const body = fs.readFileSync(file)
  return {
    body,
    gzipped: gzipSync(body),
    contentType: CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream"
  }
}

const loadAssets = async () => {
  const built = await buildConsole()
  const assets = new Map<string, Asset>()
  for (const name of built.names) assets.set(name, assetOf(path.join(built.dir, "assets", name)))
  return { page: assetOf(path.join(built.dir, "index.html")), assets }
}

// Built once; a build that failed is tried again on the next request, not kept.
const memoised = () => {
  let loading: ReturnType<typeof loadAssets> | null = null
  return Effect.tryPromise(() => {
    loading ??= loadAssets().catch((error: unknown) => {
      loading = null
      throw error
    })
    return loading
  }).pipe(
    Effect.tapError((error) => Effect.logError("the console could not be built", error.cause)),
    Effect.orDie
  )
}

const respond = (asset: Asset, cacheControl: string) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const gzip = /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")
    return HttpServerResponse.uint8Array(gzip ? asset.gzipped : asset.body, {
      contentType: asset.contentType,
      headers: {
        ...SECURITY_HEADERS,
        "cache-control": cacheControl,
        vary: "accept-encoding",
        ...(gzip ? { "content-encoding": "gzip" } : {})
      }
    })
  })

const notFound = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.fail(new HttpServerError.RouteNotFound({ request }))
)

/** The console's routes beside the API's; its files are built or read on first use. */
export const ConsoleHttpLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const files = memoised()
    const page = Effect.flatMap(files, ({ page }) => respond(page, "no-cache"))
    yield* router.get(
      "/assets/:name",
      Effect.gen(function* () {
        const { name } = yield* HttpRouter.params
        const asset = name === undefined ? undefined : (yield* files).assets.get(name)
        if (asset === undefined) return yield* notFound
        return yield* respond(asset, "public, max-age=31536000, immutable")
      })
    )
    yield* router.get("/", page)
    yield* router.get(
      "/*",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const url = request.url.split("?")[0] ?? "/"
        const last = url.slice(url.lastIndexOf("/") + 1)
        if (
          API_PREFIXES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`)) ||
          last.includes(".")
        )
          return yield* notFound
        return yield* page
      })
    )
  })
).pipe(Layer.orDie)
