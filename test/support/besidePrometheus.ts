/**
 * The metrics-app on the test server beside a real Prometheus (the compliance suite's
 * receiver), for tests that send both the same remote writes and compare their answers.
 */
import { Effect } from "effect"
import { installApp } from "./client.js"
import { postWrite, startReceiver } from "./prometheus.js"
import { REMOTE_WRITE_HEADERS } from "./remoteWrite.js"
import { adminKeyOf, TestServer } from "./server.js"

/** Installs the metrics-app as `email`; answers both API bases and a write (its status) to each. */
export const besidePrometheus = (email: string, password: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const token = adminKeyOf(server)
    yield* installApp(server, "metrics-app", email, password)
    const { url: reference } = yield* startReceiver
    const sluice = `${server.url}/metrics-compat`
    return {
      reference,
      sluice,
      token,
      writeReference: (body: Uint8Array) =>
        postWrite(`${reference}/api/v1/write`, body, REMOTE_WRITE_HEADERS),
      writeSluice: (body: Uint8Array) =>
        postWrite(`${sluice}/api/v1/write`, body, {
          ...REMOTE_WRITE_HEADERS,
          authorization: `Bearer ${token}`
        })
    }
  })
