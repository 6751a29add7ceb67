/** Series written to a test server's metrics-app as a Prometheus remote-write sender does. */
import type { TestSeries } from "./remoteWrite.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "./remoteWrite.js"
import type { RunningServer } from "./server.js"
import { adminKeyOf, call } from "./server.js"

export const METRICS_BASE = "/metrics-compat/api/v1"

/** `POST …/write` of `series` with the admin key; the reply, for the caller to check. */
export const writeSeries = (server: RunningServer, series: ReadonlyArray<TestSeries>) =>
  call(server, "POST", `${METRICS_BASE}/write`, {
    token: adminKeyOf(server),
    rawBody: remoteWriteBody(series),
    headers: REMOTE_WRITE_HEADERS
  })
