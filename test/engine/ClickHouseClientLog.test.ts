/**
 * The ClickHouse client's own log goes through the service's logger: one line per event
 * with the error's first line and no stack trace; a statement the server refused (the
 * caller's error, reported by sluice where it came from) is debug, a broken connection
 * an error.
 */
import { ClickHouseError } from "@clickhouse/client"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel } from "effect"
import { loggerClass } from "../../src/engine/ClickHouseClientLog.js"

const captured = (emit: (log: InstanceType<ReturnType<typeof loggerClass>>) => void) =>
  Effect.gen(function* () {
    const lines: Array<{ readonly level: string; readonly message: string }> = []
    const capture = Logger.make(({ logLevel, message }) => {
      lines.push({ level: logLevel.label, message: [message].flat().map(String).join(" ") })
    })
    yield* Effect.gen(function* () {
      const LoggerClass = loggerClass(yield* Effect.runtime<never>())
      emit(new LoggerClass())
    }).pipe(
      Logger.withMinimumLogLevel(LogLevel.All),
      Effect.provide(Logger.replace(Logger.defaultLogger, capture))
    )
    return lines
  })

describe("the ClickHouse client's log", () => {
  it.effect("a connection error: one error line, first lines only, no stack trace", () =>
    Effect.gen(function* () {
      const refused = new Error("connect ECONNREFUSED 127.0.0.1:8123\n    at TCPConnectWrap")
      const lines = yield* captured((log) =>
        log.error({
          module: "Connection",
          message: "Query: HTTP request error.\nArguments: {...}",
          args: { query_id: "q-1", connection_id: "c-1" },
          err: refused
        })
      )
      expect(lines).toEqual([
        {
          level: "ERROR",
          message:
            "ClickHouse client (Connection, query q-1): Query: HTTP request error.: " +
            "connect ECONNREFUSED 127.0.0.1:8123"
        }
      ])
    })
  )

  it.effect("a statement the server refused: a debug line", () =>
    Effect.gen(function* () {
      const lines = yield* captured((log) =>
        log.error({
          module: "Connection",
          message: "Command: HTTP request error.",
          err: new ClickHouseError({
            message: "default: Not enough privileges.\nmore",
            code: "497",
            type: "ACCESS_DENIED"
          })
        })
      )
      expect(lines).toEqual([
        {
          level: "DEBUG",
          message:
            "ClickHouse client (Connection): Command: HTTP request error.: " +
            "default: Not enough privileges."
        }
      ])
    })
  )

  it.effect("a warning keeps its level", () =>
    Effect.gen(function* () {
      const lines = yield* captured((log) =>
        log.warn({ module: "Config", message: "URL parameter overrides a setting" })
      )
      expect(lines).toEqual([
        { level: "WARN", message: "ClickHouse client (Config): URL parameter overrides a setting" }
      ])
    })
  )
})
