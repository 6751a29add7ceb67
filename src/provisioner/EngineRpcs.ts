/**
 * The typed channel between the service and a cluster's engine worker process. It is
 * the `AnalyticalEngine` contract spelled as RPCs: a query streams its result bytes
 * back (acknowledged chunk by chunk, so a slow reader slows the engine, not memory;
 * the last piece says so, so a reader can finish without waiting for the stream's end,
 * which comes only after the last piece's acknowledgement, one more round trip), or
 * comes back whole in one reply (`QueryWhole`) or as a file (`QueryToFile`); an insert
 * that ends within a bound goes in one message (`Insert`) or, binary and large, as a
 * file (`InsertFile`); a larger one is opened, fed chunk by chunk (each acknowledged
 * only once the engine has room for it) and committed, so the service never holds more
 * of a body than that bound.
 */
import { Rpc, RpcGroup } from "@effect/rpc"
import { Schema } from "effect"
import * as path from "node:path"
import {
  CommandRequest,
  EngineError,
  InsertRequest,
  InsertSummary,
  EngineQuery
} from "../../domain/Engine.js"

/** The worker's own reading of its process and engine. */
export class WorkerSample extends Schema.Class<WorkerSample>("WorkerSample")({
  cpuCores: Schema.Number,
  memoryBytes: Schema.Number,
  readQueries: Schema.Number,
  writeQueries: Schema.Number
}) {}

const insertId = Schema.String

/**
 * A payload schema the client does not validate before sending. `RpcClient` checks a
 * payload with the schema's `make` when it has one, and `Struct.make` rebuilds its
 * validator on every call when a field is a class, a cost on every engine call.
 * These payloads are built from domain classes validated when they were made; the
 * schema still encodes them, and the worker still decodes and checks them.
 */
const sentAsBuilt = <Fields extends Schema.Struct.Fields>(fields: Fields) => {
  const struct = Schema.Struct(fields)
  return Schema.make<typeof struct.Type, typeof struct.Encoded, never>(struct.ast)
}

/**
 * Where the service and a worker hand each other large bodies as files: `QueryToFile`
 * results (the worker's) and `InsertFile` bodies (the service's). Inside the cluster's
 * directory, which only the service's user can enter; emptied when a worker starts.
 */
export const exchangeDirectory = (dataDir: string) => path.join(dataDir, "exchange")

/** A file's name in `exchangeDirectory`: whoever writes it names it by UUID. */
export const ExchangeFile = Schema.String.pipe(Schema.pattern(/^[0-9a-f-]{36}\.bin$/))

/**
 * A piece of a query's result, as the engine made it (the query path decides by the
 * first two whether a result fits whole); `last` on the final one.
 */
export const QueryPiece = Schema.Struct({
  bytes: Schema.Uint8ArrayFromSelf,
  last: Schema.Boolean
})

export class EngineRpcs extends RpcGroup.make(
  Rpc.make("Query", {
    payload: EngineQuery,
    success: QueryPiece,
    error: EngineError,
    stream: true
  }),
  Rpc.make("QueryWhole", {
    payload: sentAsBuilt({ request: EngineQuery, maxBytes: Schema.Number }),
    success: Schema.Uint8ArrayFromSelf,
    error: EngineError
  }),
  // A whole result written by the engine into a file of `resultsDirectory`, which the
  // service reads and removes. Through the socket, a large result was copied out of the
  // engine, into a message and through the socket's buffer a turn of each event loop at
  // a time; a day of samples (14 MB) reached the service 35-70 ms after the engine had
  // made it (the measurements: test/bench/README.md).
  Rpc.make("QueryToFile", {
    payload: sentAsBuilt({ request: EngineQuery, maxBytes: Schema.Number }),
    success: Schema.Struct({ file: ExchangeFile, bytes: Schema.Number }),
    error: EngineError
  }),
  // A body that ends within `MESSAGE_INSERT_BYTES` (most inserts: one piece) in one
  // message, as the pieces it came in: no round trip per chunk, no join on the sender.
  Rpc.make("Insert", {
    payload: sentAsBuilt({
      request: InsertRequest,
      pieces: Schema.Array(Schema.Uint8ArrayFromSelf)
    }),
    success: InsertSummary,
    error: EngineError
  }),
  // A binary body the service wrote into a file of `exchangeDirectory`, which the engine
  // reads as it is and the worker removes. Through the socket a body crosses a buffer's
  // worth (~200 KB) a turn of each event loop: the metrics-app's batches of a million
  // samples waited hundreds of ms behind the remote writes keeping the service busy,
  // while the worker's core stood idle (the measurements: test/bench/README.md).
  Rpc.make("InsertFile", {
    payload: sentAsBuilt({ request: InsertRequest, file: ExchangeFile }),
    success: InsertSummary,
    error: EngineError
  }),
  Rpc.make("InsertOpen", { payload: sentAsBuilt({ insertId, request: InsertRequest }) }),
  Rpc.make("InsertChunk", {
    payload: { insertId, bytes: Schema.Uint8ArrayFromSelf },
    error: EngineError
  }),
  Rpc.make("InsertCommit", { payload: { insertId }, success: InsertSummary, error: EngineError }),
  Rpc.make("InsertAbort", { payload: { insertId } }),
  Rpc.make("Command", { payload: CommandRequest, error: EngineError }),
  Rpc.make("Cancel", {
    payload: { queryId: Schema.String },
    success: Schema.Boolean,
    error: EngineError
  }),
  Rpc.make("Sample", { success: WorkerSample })
) {}
