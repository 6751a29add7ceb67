/** Values checked against the contract before a request: refusals name what the user typed. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { CreateClusterRequest } from "../../domain/api/ClusterModels.js"
import { AddMemberRequest } from "../../domain/api/OrganizationsApi.js"
import { checked } from "../../src/cli/Names.js"

const refusal = (effect: Effect.Effect<unknown, { message: string; exitCode: number }>) =>
  Effect.map(Effect.flip(effect), (error) => [error.exitCode, error.message])

describe("checked", () => {
  it.effect("names an argument by its placeholder and an option by the flag typed", () =>
    Effect.gen(function* () {
      // Were "--email: not an email" (no such option) and "--idle-timeout-minutes:
      // idle_timeout_minutes is …" (the API's field, for --idle-timeout).
      expect(
        yield* refusal(
          checked(AddMemberRequest, { email: "notanemail", role: "member" }, { email: "<email>" })
        )
      ).toEqual([2, "<email>: not an email."])
      const cluster = {
        name: "analytics",
        replicas: 1,
        size: { cpu_cores: 1, memory_gib: 4 },
        idle_timeout_minutes: 5
      }
      expect(
        yield* refusal(
          checked(CreateClusterRequest, cluster, {
            name: "<cluster>",
            idle_timeout_minutes: "--idle-timeout"
          })
        )
      ).toEqual([2, "--idle-timeout is 0 (off) or 15 through 43200."])
      // A field without a word of its own is its option's name.
      expect(
        yield* refusal(
          checked(CreateClusterRequest, { ...cluster, idle_timeout_minutes: 15, name: "bad name!" })
        )
      ).toEqual([2, expect.stringMatching(/^--name: a cluster name is /)])
    })
  )
})
