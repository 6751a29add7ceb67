/**
 * Event-collector ingest throughput: batches of events sent by 4 concurrent clients to
 * `POST /services/collector` as concatenated HEC envelopes (what splunk-logging and the
 * Collector's splunk_hec exporter send), next to the same events posted as a JSON array
 * to `/v1/tables`, in one run (issue target: the collector ≥ 0.8× the table insert).
 * Bodies are built up front, so only the server is measured.
 */
import { Effect } from "effect"
import { installSplApp } from "../support/hec.js"
import { adminKeyOf, freshDataDir, startServer } from "../support/server.js"
import { workerPids } from "../clusters/workerProcesses.js"
import { cpuReading, timeSides } from "./clients.js"

const EVENTS_PER_BATCH = 1_000
const BATCHES = 120
const CLIENTS = 4
const ROUNDS = 4
const ADMIN = "bench@example.com"
const PASSWORD = "bench admin password"

/** One event's payload: what a service logs, a few fields, some nested. */
const eventOf = (batch: number, i: number) => ({
  message: `GET /api/items/${i} 200`,
  severity: i % 10 === 0 ? "error" : "info",
  status: i % 10 === 0 ? 500 : 200,
  duration_ms: (i * 7) % 250,
  request: {
    method: "GET",
    path: `/api/items/${i}`,
    client: { ip: `10.0.${batch % 256}.${i % 256}` }
  }
})

const time = (batch: number, i: number) => 1_767_225_600 + batch * EVENTS_PER_BATCH + i

const rate = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString("en")

export const hec = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const encoder = new TextEncoder()
        const collector = Array.from({ length: BATCHES }, (_, b) =>
          encoder.encode(
            Array.from({ length: EVENTS_PER_BATCH }, (_, i) =>
              JSON.stringify({
                time: `${time(b, i)}.123`,
                host: "web-1",
                sourcetype: "access",
                event: eventOf(b, i)
              })
            ).join("")
          )
        )
        // The same events as table rows: the envelope's metadata as fields beside the event's.
        const rows = Array.from({ length: BATCHES }, (_, b) =>
          encoder.encode(
            JSON.stringify(
              Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
                _time: time(b, i) * 1000 + 123,
                host: "web-1",
                sourcetype: "access",
                ...eventOf(b, i)
              }))
            )
          )
        )
        const size = (list: ReadonlyArray<Uint8Array>) =>
          Math.round(list.reduce((n, b) => n + b.length, 0) / (BATCHES * EVENTS_PER_BATCH))
        console.log(
          `${BATCHES} batches × ${EVENTS_PER_BATCH} events, ${CLIENTS} clients; ` +
            `${size(collector)} bytes/event as HEC envelopes, ${size(rows)} bytes/row as JSON`
        )

        const server = yield* startServer(freshDataDir("bench-hec"), {
          SLUICE_ADMIN_EMAIL: ADMIN,
          SLUICE_ADMIN_PASSWORD: PASSWORD
        })
        yield* installSplApp(server, ADMIN, PASSWORD)
        const token = adminKeyOf(server)
        const post = async (
          path: string,
          authorization: string,
          type: string,
          body: Uint8Array
        ) => {
          const reply = await fetch(`${server.url}${path}`, {
            method: "POST",
            headers: { authorization, "content-type": type },
            body
          })
          const answer = await reply.text()
          if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${answer}`)
        }
        const sides = {
          // splunk-logging's content type: the collector reads any.
          hec: (b: Uint8Array) =>
            post("/services/collector", `Splunk ${token}`, "application/x-www-form-urlencoded", b),
          tables: (b: Uint8Array) =>
            post("/v1/tables/bench_events", `Bearer ${token}`, "application/json", b)
        }
        yield* Effect.promise(() => Promise.all([sides.hec(collector[0]!), sides.tables(rows[0]!)]))
        const keys = yield* Effect.promise(() =>
          fetch(`${server.url}/v1/keys`, { headers: { authorization: `Bearer ${token}` } }).then(
            (r) => r.json() as Promise<{ cluster: { id: string } }>
          )
        )
        const [worker] = workerPids(keys.cluster.id)
        if (worker === undefined) throw new Error("no engine worker found")
        const { seconds, used } = yield* Effect.promise(() =>
          timeSides(
            ROUNDS,
            CLIENTS,
            {
              tables: { batches: rows, send: sides.tables },
              hec: { batches: collector, send: sides.hec }
            },
            cpuReading([worker])
          )
        )
        const count = BATCHES * EVENTS_PER_BATCH
        console.log(`/v1/tables (JSON array):   ${rate(count, seconds.tables)} rows/s`)
        console.log(`/services/collector (HEC): ${rate(count, seconds.hec)} events/s`)
        console.log(
          `ratio hec/tables: ${(seconds.tables / seconds.hec).toFixed(2)} (target ≥ 0.80)`
        )
        // The server runs in this process, with the clients: its CPU is "this process".
        const perBatch = (side: "tables" | "hec") =>
          used[side].map((s) => ((s * 1000) / BATCHES).toFixed(1)).join(" + ")
        const both = (side: "tables" | "hec") => used[side][0]! + used[side][1]!
        console.log(
          `CPU ms a batch while each side ran, this process (server, clients) + worker: ` +
            `/v1/tables ${perBatch("tables")}, collector ${perBatch("hec")}; ` +
            `tables' over the collector's: ${(both("tables") / both("hec")).toFixed(2)}`
        )
      })
    )
  )
