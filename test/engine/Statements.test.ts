import { describe, expect, it } from "@effect/vitest"
import type { ClickHouseClient } from "@clickhouse/client"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import * as Statements from "../../src/engine/Statements.js"
import type { Statement, StatementClient } from "../../src/engine/Statements.js"

// Which statement clients (chDB sessions) are opened and closed; none runs anything here.
const sessions = () => {
  const opened: Array<StatementClient> = []
  const closed = new Set<StatementClient>()
  const open = (): StatementClient => {
    const session: StatementClient = {
      client: {
        close: () => {
          closed.add(session)
          return Promise.resolve()
        }
      } as unknown as ClickHouseClient
    }
    opened.push(session)
    return session
  }
  // The connection kills go to: a kill that finds nothing.
  const killer = {
    exec: () => Promise.resolve({ stream: (async function* () {})() }),
    close: () => Promise.resolve()
  } as unknown as ClickHouseClient
  return { opened, closed, statements: Statements.make(killer, { clientPerStatement: open }) }
}

/** One read-only query's statement in `db`, ended by `end`. */
const query = (
  statements: ReturnType<typeof Statements.make>,
  end: (statement: Statement) => Effect.Effect<void>
) =>
  Effect.exit(
    Effect.scoped(
      Effect.flatMap(statements.begin(randomUUID(), { readonly: 1 }, { database: "db" }), end)
    )
  )

describe("Statements: kept read-only sessions", () => {
  it.effect("a session whose query completed is kept, even if its reader stopped at the end", () =>
    Effect.gen(function* () {
      const { opened, closed, statements } = sessions()
      // Over the worker's RPC the reader stops at the last piece: the scope ends interrupted.
      yield* query(statements, (s) =>
        Effect.zipRight(
          Effect.sync(() => s.settle(true)),
          Effect.interrupt
        )
      )
      let setup: string | undefined = "unset"
      yield* query(statements, (s) =>
        Effect.sync(() => {
          setup = s.setup
          s.settle(true)
        })
      )
      expect(opened).toHaveLength(1)
      expect(closed.size).toBe(0)
      // The kept session is set up already: nothing to run before the query.
      expect(setup).toBeUndefined()
    })
  )

  it.effect("a session whose query failed, or never ended, is closed", () =>
    Effect.gen(function* () {
      const { opened, closed, statements } = sessions()
      yield* query(statements, (s) => Effect.sync(() => s.settle(false)))
      yield* query(statements, () => Effect.interrupt)
      yield* query(statements, (s) => Effect.sync(() => s.settle(true)))
      expect(opened).toHaveLength(3)
      expect(closed).toEqual(new Set([opened[0], opened[1]]))
    })
  )
})
