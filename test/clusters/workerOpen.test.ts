/**
 * A streamed result from a cluster's engine worker read by `queryOpen`: its first pieces
 * come in one call, taken from the reply as they arrive. A result that ends within them is
 * whole (no rest), one that does not streams on, and both read as the same result through
 * `query`; a failure of the statement is the engine's error, and closing the scope while
 * the first piece is awaited stops the query in the worker.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { randomUUID } from "node:crypto"
import { EngineQuery } from "../../domain/Engine.js"
import { awaitGone, awaitRunning, readOpened, text } from "../engine/helpers.js"
import { TestServer, freshDataDir } from "../support/server.js"
import { adminEnv, defaultClusterEngine } from "./support.js"

const dataDir = freshDataDir("worker-open")

const LONG_QUERY = "SELECT count() FROM numbers(1e11) WHERE sipHash64(number) = 0"

const csv = (sql: string, queryId = randomUUID()) =>
  new EngineQuery({
    sql,
    format: "CSV",
    queryId,
    settings: { readonly: 1, max_block_size: 1000 }
  })

const joined = (pieces: ReadonlyArray<Uint8Array>) =>
  new TextDecoder().decode(Buffer.concat(pieces))

layer(TestServer.layer(dataDir, adminEnv), { excludeTestServices: true, timeout: 180_000 })(
  "queryOpen on an engine worker",
  (it) => {
    const engine = Effect.map(defaultClusterEngine, (cluster) => cluster.engine)

    it.effect("a small result is whole; a long one is its first pieces and the rest", () =>
      Effect.gen(function* () {
        const e = yield* engine
        const open = e.queryOpen
        if (open === undefined) return expect.fail("the worker's engine has no queryOpen")

        const small = "SELECT number, toString(number) AS s FROM numbers(10)"
        const whole = yield* Effect.scoped(open(csv(small), 2))
        expect(whole.rest).toBeUndefined()
        expect(joined(whole.head)).toBe(
          '0,"0"\n1,"1"\n2,"2"\n3,"3"\n4,"4"\n5,"5"\n6,"6"\n7,"7"\n8,"8"\n9,"9"\n'
        )

        const none = yield* Effect.scoped(open(csv("SELECT 1 WHERE 0"), 2))
        expect(none.rest).toBeUndefined()
        expect(joined(none.head)).toBe("")

        const long = "SELECT number FROM numbers(100000)"
        const read = yield* readOpened(open(csv(long), 2))
        expect(read.head.length).toBeGreaterThanOrEqual(2)
        const lines = read.text.split("\n")
        expect(lines).toHaveLength(100001)
        expect(lines[99999]).toBe("99999")
        expect(read.text).toBe(yield* text(e.query(csv(long))))
      })
    )

    it.effect("a statement the engine refuses fails with the engine's error", () =>
      Effect.gen(function* () {
        const e = yield* engine
        const error = yield* Effect.flip(
          Effect.scoped(e.queryOpen!(csv("SELECT * FROM no_such_table"), 2))
        )
        expect(error).toMatchObject({ _tag: "EngineError", type: "UNKNOWN_TABLE" })
      })
    )

    it.effect("closing its scope while the first piece is awaited stops the query", () =>
      Effect.gen(function* () {
        const e = yield* engine
        const queryId = randomUUID()
        const fiber = yield* Effect.fork(Effect.scoped(e.queryOpen!(csv(LONG_QUERY, queryId), 2)))
        yield* awaitRunning(e, queryId)
        yield* Fiber.interrupt(fiber)
        yield* awaitGone(e, queryId)
      })
    )
  }
)
