/**
 * `clusters` (list, show, create, update, stop, resume, delete): an organization's clusters,
 * with a user login. `--wait` follows the status until the change is done.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { DateTime, Effect, Option } from "effect"
import type { Cluster, SizeOption } from "../../../domain/api/ClusterModels.js"
import { withClient } from "../Api.js"
import { contract } from "../Contract.js"
import * as Charts from "../Charts.js"
import { badUsage, failure } from "../CliError.js"
import * as Duration from "../Duration.js"
import {
  confirmed,
  jsonOption,
  printFields,
  printJson,
  printTable,
  when,
  yesOption
} from "../Listing.js"
import { checked } from "../Names.js"
import { errorLine, line, stderrIsTTY } from "../Output.js"
import type { ScopeFlags, Session } from "../Session.js"
import { organizationOf, scopeOptions, signedIn } from "../Session.js"
import * as Table from "../Table.js"

const orgParams = (session: Session) => ({ organization: organizationOf(session) })

const list = (session: Session) =>
  withClient(session, (client) => client.clusters.list({ urlParams: orgParams(session) }))

/** Clusters are named on the command line and addressed by id in the API. */
const byName = (session: Session, name: string) =>
  Effect.flatMap(list(session), ({ clusters }) => {
    const found = clusters.find((c) => c.name === name || c.id === name)
    return found === undefined
      ? Effect.fail(
          failure(
            `No cluster ${JSON.stringify(name)} in ${organizationOf(session)}.`,
            `Its clusters: ${clusters.map((c) => c.name).join(", ") || "none"}.`
          )
        )
      : Effect.succeed(found)
  })

const stateOf = (c: Cluster) => (c.status.ready ? "ready" : c.status.phase)
const sizeOf = (c: Cluster) =>
  c.resources === null
    ? ""
    : `${c.resources.replicas}× ${c.resources.cpu_cores_per_replica} CPU, ${Table.bytes(c.resources.memory_bytes_per_replica)}`

const show = (c: Cluster) =>
  printFields([
    ["name", c.name],
    ["id", c.id],
    ["status", stateOf(c) + (c.status.message === null ? "" : ` (${c.status.message})`)],
    ["size", sizeOf(c)],
    ["idle timeout", c.idle_timeout_minutes === 0 ? "off" : `${c.idle_timeout_minutes} min`],
    ["can pause", c.can_pause ? "yes" : "no"],
    ["can resume", c.can_resume ? "yes" : "no"],
    ["created", when(c.created_at)]
  ])

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

/** Polls the cluster until `done`, a spinner with its phase at a terminal, phase changes as lines otherwise. */
const waitUntil = (session: Session, id: string, goal: string, done: (c: Cluster) => boolean) =>
  Effect.gen(function* () {
    const tty = stderrIsTTY()
    let tick = 0
    let last = ""
    const poll = withClient(session, (client) =>
      client.clusters.get({
        path: { cluster_id: id as Cluster["id"] },
        urlParams: orgParams(session)
      })
    ).pipe(
      Effect.tap((c) =>
        Effect.sync(() => {
          const phase = stateOf(c)
          if (tty)
            process.stderr.write(
              `\r\x1b[2K${SPINNER[tick++ % SPINNER.length]} ${c.name}: ${phase}, waiting until ${goal}…`
            )
          else if (phase !== last) process.stderr.write(`${c.name}: ${phase}\n`)
          last = phase
        })
      )
    )
    const cluster = yield* Effect.repeat(Effect.delay(poll, "500 millis"), { until: done })
    if (tty) process.stderr.write("\r\x1b[2K")
    yield* errorLine(`${cluster.name} is ${goal}.`)
    return cluster
  })

const waitOption = Options.boolean("wait").pipe(
  Options.withDescription("Return only when the change is done (a spinner meanwhile)")
)
const nameArg = Args.text({ name: "cluster" }).pipe(Args.withDescription("The cluster's name"))
const listOptions = { ...scopeOptions, json: jsonOption }

const listClusters = (flags: ScopeFlags & { readonly json: boolean }) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const answer = yield* list(session)
    if (flags.json) return yield* printJson(answer)
    yield* printTable(
      ["name", "status", "size", "idle timeout", "created"],
      answer.clusters.map((c) => [
        c.name,
        stateOf(c),
        sizeOf(c),
        c.idle_timeout_minutes === 0 ? "off" : `${c.idle_timeout_minutes} min`,
        when(c.created_at)
      ]),
      "No clusters."
    )
  })

/** A catalog label (`2x8`, or as the catalog spells it) or `CPUxGiB`, resolved against the catalog. */
const sizeFrom = (session: Session, text: string) =>
  Effect.gen(function* () {
    const catalog = yield* withClient(session, (client) => client.clusterSizes.sizes())
    const match = /^(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)$/i.exec(text.trim())
    const found = catalog.sizes.find(
      (s: SizeOption) =>
        s.size.toLowerCase() === text.trim().toLowerCase() ||
        (match !== null && s.cpu_cores === Number(match[1]) && s.memory_gib === Number(match[2]))
    )
    if (found === undefined)
      return yield* Effect.fail(
        badUsage(
          `No size ${JSON.stringify(text)} in the catalog.`,
          `Sizes (label or CPU x GiB): ${catalog.sizes.map((s) => `${s.size} = ${s.cpu_cores}x${s.memory_gib}`).join(", ")}.`
        )
      )
    return { size: found, catalog }
  })

const create = Command.make(
  "create",
  {
    ...scopeOptions,
    name: nameArg,
    size: Options.text("size").pipe(
      Options.withDescription(
        "A size of the catalog, by its label or as CPUxGiB such as 2x8 (an unknown one lists them)"
      )
    ),
    replicas: Options.integer("replicas").pipe(
      Options.withDescription("Replicas (default: the catalog's minimum)"),
      Options.optional
    ),
    idleTimeout: Options.integer("idle-timeout").pipe(
      Options.withDescription("Minutes idle before pausing (0: never)"),
      Options.optional
    ),
    wait: waitOption,
    json: jsonOption
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const { size, catalog } = yield* sizeFrom(session, flags.size)
      const payload = yield* checked(
        (yield* contract).CreateClusterRequest,
        {
          name: flags.name,
          replicas: Option.getOrElse(flags.replicas, () => catalog.min_number_of_replicas),
          size: { cpu_cores: size.cpu_cores, memory_gib: size.memory_gib },
          ...Option.match(flags.idleTimeout, {
            onNone: () => ({}),
            onSome: (m) => ({ idle_timeout_minutes: m })
          })
        },
        { name: "<cluster>", idle_timeout_minutes: "--idle-timeout" }
      )
      const created = yield* withClient(session, (client) =>
        client.clusters.create({ urlParams: orgParams(session), payload })
      )
      yield* errorLine(`Created cluster ${created.name} (${created.id}), ${size.size}.`)
      const cluster = flags.wait
        ? yield* waitUntil(session, created.id, "ready", (c) => c.status.ready)
        : created
      if (flags.json) yield* printJson(cluster)
    })
).pipe(
  Command.withDescription(
    "Create a cluster from the size catalog. Example: sluice clusters create analytics --size 2x8 --wait"
  )
)

const update = Command.make(
  "update",
  {
    ...scopeOptions,
    target: nameArg,
    rename: Options.text("name").pipe(Options.withDescription("A new name"), Options.optional),
    idleTimeout: Options.integer("idle-timeout").pipe(
      Options.withDescription("Minutes idle before pausing (0: never)"),
      Options.optional
    )
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const found = yield* byName(session, flags.target)
      const payload = yield* checked(
        (yield* contract).UpdateClusterRequest,
        {
          ...Option.match(flags.rename, { onNone: () => ({}), onSome: (name) => ({ name }) }),
          ...Option.match(flags.idleTimeout, {
            onNone: () => ({}),
            onSome: (m) => ({ idle_timeout_minutes: m })
          })
        },
        { idle_timeout_minutes: "--idle-timeout" }
      )
      const updated = yield* withClient(session, (client) =>
        client.clusters.update({
          path: { cluster_id: found.id },
          urlParams: orgParams(session),
          payload
        })
      )
      yield* show(updated)
    })
).pipe(
  Command.withDescription(
    "Rename a cluster or change its idle timeout. Example: sluice clusters update analytics --idle-timeout 60"
  )
)

const transition = (verb: "stop" | "resume") =>
  Command.make("" + verb, { ...scopeOptions, target: nameArg, wait: waitOption }, (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const found = yield* byName(session, flags.target)
      const params = { path: { cluster_id: found.id }, urlParams: orgParams(session) }
      const changed = yield* withClient(session, (client) =>
        verb === "stop" ? client.clusters.stop(params) : client.clusters.resume(params)
      )
      yield* errorLine(
        `${verb === "stop" ? "Stopping" : "Resuming"} ${changed.name}: ${stateOf(changed)}.`
      )
      if (flags.wait)
        yield* verb === "stop"
          ? waitUntil(session, found.id, "paused", (c) => c.can_resume)
          : waitUntil(session, found.id, "ready", (c) => c.status.ready && c.can_pause)
    })
  ).pipe(
    Command.withDescription(
      verb === "stop"
        ? "Pause a cluster (data kept). Example: sluice clusters stop analytics --wait"
        : "Resume a paused cluster. Example: sluice clusters resume analytics --wait"
    )
  )

const remove = Command.make(
  "delete",
  { ...scopeOptions, target: nameArg, yes: yesOption },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const found = yield* byName(session, flags.target)
      if (!(yield* confirmed(flags.yes, `delete cluster ${found.name} and all its data`)))
        return yield* Effect.fail(failure("Not deleted."))
      yield* withClient(session, (client) =>
        client.clusters.delete({ path: { cluster_id: found.id }, urlParams: orgParams(session) })
      )
      yield* errorLine(`Deleted cluster ${found.name}.`)
    })
).pipe(
  Command.withDescription(
    "Delete a cluster and its data (asks first; --yes to skip). Example: sluice clusters delete analytics --yes"
  )
)

const showCommand = Command.make(
  "show",
  { ...scopeOptions, target: nameArg, json: jsonOption },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const found = yield* byName(session, flags.target)
      return yield* flags.json ? printJson(found) : show(found)
    })
).pipe(
  Command.withDescription(
    "A cluster's status, size and lifecycle. Example: sluice clusters show default"
  )
)

const metrics = Command.make(
  "metrics",
  {
    ...scopeOptions,
    target: nameArg,
    json: jsonOption,
    since: Options.text("since").pipe(
      Options.withDescription("How far back from now (e.g. 30m, 6h, 7d)"),
      Options.withDefault("1h")
    )
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const since = yield* Duration.seconds("since", flags.since)
      const end = new Date()
      const answer = yield* withClient(session, (client) =>
        client.clusters.metricsByName({
          urlParams: {
            ...orgParams(session),
            cluster: flags.target,
            start_time: DateTime.unsafeMake(end.getTime() - since * 1000),
            end_time: DateTime.unsafeMake(end)
          }
        })
      )
      if (flags.json) return yield* printJson(answer)
      const charts = answer.metrics.map((m) =>
        [
          `${m.label} (${m.unit}, ${m.aggregation} per sample${m.scope === "replica" ? ", per replica" : ""})`,
          Charts.timeLines(
            m.points.map((p) => ({
              series: p.replica ?? m.label,
              time: Date.parse(p.time) / 1000,
              value: p.value
            })),
            (seconds) => when(new Date(seconds * 1000).toISOString()).slice(0, 16),
            8
          )
        ].join("\n")
      )
      yield* line(`${answer.cluster.name}, the last ${flags.since}:\n\n${charts.join("\n\n")}`)
    })
).pipe(
  Command.withDescription(
    "A cluster's read and write queries, CPU and memory over a time range, as terminal charts. Example: sluice clusters metrics default --since 6h"
  )
)

export const clusters = Command.make("clusters", listOptions, listClusters).pipe(
  Command.withDescription(
    "The organization's clusters (a user login): list (the default), show, create, update, stop, resume, delete, metrics. Example: sluice clusters create analytics --size 2x8 --wait"
  ),
  Command.withSubcommands([
    Command.make("list", listOptions, listClusters).pipe(
      Command.withDescription("List clusters. Example: sluice clusters list --json")
    ),
    showCommand,
    create,
    update,
    transition("stop"),
    transition("resume"),
    remove,
    metrics
  ])
)
