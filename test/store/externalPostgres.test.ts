/**
 * The `external` project's marker: with no PostgreSQL configured the project's suites do
 * not run, and this says so in the report instead of passing silently.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { onServer } from "../support/controlPlane.js"

const configured = (process.env.SLUICE_TEST_POSTGRES_URL ?? "") !== ""

describe("external PostgreSQL control plane", () => {
  // Reported as skipped, never as passed: nothing was checked.
  if (!configured) it.skip("not run: SLUICE_TEST_POSTGRES_URL is not set (.ci/run sets it)")

  it.effect.runIf(configured)("is a PostgreSQL server this suite can create databases on", () =>
    Effect.gen(function* () {
      const [row] = yield* onServer<{ readonly server_version_num: string }>(
        "SHOW server_version_num"
      )
      expect(Number(row?.server_version_num)).toBeGreaterThanOrEqual(140000)
      const [role] = yield* onServer<{ readonly allowed: boolean }>(
        "SELECT rolcreatedb OR rolsuper AS allowed FROM pg_roles WHERE rolname = current_user"
      )
      expect(role?.allowed).toBe(true)
    })
  )
})
