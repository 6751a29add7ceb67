/**
 * The three ways the ingest benchmark sends the same bytes into the same table layout
 * (`Layout.createTableSql`, `INSERT … (__raw) FORMAT JSONAsObject`):
 * - `chdb`: chDB opened in this process on its own directory, one session per concurrent
 *   client (a session runs its statements one at a time), the statement the engine
 *   adapter builds (`INSERT …\n<body>`): the physical limit the issue measures against;
 * - `worker`: straight into the cluster's engine worker (no staging, no paths), so the
 *   hop's own cost shows;
 * - `http`: `POST /v1/tables/{table}` with undici, one keep-alive connection per client.
 * A gzip body is decompressed by each side that is not HTTP first, as the server does.
 */
import { createChdbConnection } from "chdb/connection"
import type { ChdbConnection } from "chdb/connection"
import { Effect, Stream } from "effect"
import { promisify } from "node:util"
import { gunzip } from "node:zlib"
import { Agent, request } from "undici"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { InsertRequest } from "../../domain/Engine.js"
import * as Layout from "../../src/tables/Layout.js"

const gunzipped = promisify(gunzip)

export interface Body {
  readonly bytes: Uint8Array
  /** `ndjson`: one object per line; `gzip`: a JSON array, gzip-compressed. */
  readonly kind: "json" | "ndjson" | "gzip"
}

export type Send = (body: Body) => Promise<void>

const plain = async (body: Body): Promise<Buffer> =>
  body.kind === "gzip" ? gunzipped(body.bytes) : Buffer.from(body.bytes)

/** chDB in this process over `dir`, table `default.{table}`; `close` ends its sessions. */
export const inProcessChdb = async (dir: string, table: string) => {
  const idle: Array<ChdbConnection> = []
  const all: Array<ChdbConnection> = []
  const session = () => {
    const made = createChdbConnection({ path: dir })
    all.push(made)
    return made
  }
  const first = session()
  await first.chdb.queryAsync(Layout.createTableSql("default", table, ""), { format: "CSV" })
  idle.push(first)
  const insertSql = `INSERT INTO ${Layout.qualified("default", table)} (${Layout.RAW_INPUT}) FORMAT ${Layout.INSERT_FORMAT}`
  const send: Send = async (body) => {
    const text = (await plain(body)).toString("utf8")
    const connection = idle.pop() ?? session()
    try {
      await connection.chdb.queryAsync(`${insertSql}\n${text}`, { format: "CSV" })
    } finally {
      idle.push(connection)
    }
  }
  const close = () => Promise.all(all.map((c) => c.close())).then(() => undefined)
  return { send, close }
}

/** The cluster's engine worker, straight: one `Engine.insert` per body. */
export const workerEngine =
  (engine: AnalyticalEngine, table: string): Send =>
  async (body) => {
    const bytes = await plain(body)
    await Effect.runPromise(
      engine.insert(
        new InsertRequest({
          database: "default",
          table,
          format: Layout.INSERT_FORMAT,
          columns: [Layout.RAW_INPUT],
          queryId: crypto.randomUUID()
        }),
        Stream.make(bytes)
      )
    )
  }

const contentType = {
  json: "application/json",
  gzip: "application/json",
  ndjson: "application/x-ndjson"
}

/** `POST /v1/tables/{table}` over `connections` keep-alive connections. */
export const overHttp = (url: string, token: string, table: string, connections: number) => {
  const dispatcher = new Agent({ connections })
  const send: Send = async (body) => {
    const reply = await request(`${url}/v1/tables/${table}`, {
      method: "POST",
      dispatcher,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": contentType[body.kind],
        ...(body.kind === "gzip" ? { "content-encoding": "gzip" } : {})
      },
      body: body.bytes
    })
    const text = await reply.body.text()
    if (reply.statusCode !== 200) throw new Error(`insert failed: ${reply.statusCode} ${text}`)
  }
  return { send, close: () => dispatcher.close() }
}
