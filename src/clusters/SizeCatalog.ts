/**
 * The size catalog (from `SLUICE_CLUSTER_SIZES`) and the validation of a create request
 * against it. Each refusal is a 400 whose hint lists what is allowed.
 */
import { Effect } from "effect"
import type { CreateClusterRequest } from "../../domain/api/ClusterModels.js"
import { ClusterSize, SizeCatalog, SizeOption } from "../../domain/api/ClusterModels.js"
import { InvalidClusterSize } from "../../domain/Errors.js"
import * as HostCapacity from "./HostCapacity.js"

/** `"1:4,2:8"` → sizes ordered by cores then memory, or `undefined` when malformed. */
export const parseSizes = (text: string): ReadonlyArray<ClusterSize> | undefined => {
  const sizes: Array<ClusterSize> = []
  for (const pair of text.split(",")) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(pair)
    if (match === null) return undefined
    const cpu_cores = Number(match[1])
    const memory_gib = Number(match[2])
    if (cpu_cores <= 0 || memory_gib <= 0) return undefined
    sizes.push(new ClusterSize({ cpu_cores, memory_gib }))
  }
  return sizes.sort((a, b) => a.cpu_cores - b.cpu_cores || a.memory_gib - b.memory_gib)
}

const option = (size: ClusterSize) =>
  new SizeOption({ size: `${size.cpu_cores} CPU / ${size.memory_gib} GiB`, ...size })

export const makeCatalog = (options: {
  readonly sizes: string
  readonly maxReplicas: number
}): SizeCatalog => {
  const sizes = (parseSizes(options.sizes) ?? []).map(option)
  return new SizeCatalog({
    min_number_of_replicas: 1,
    max_number_of_replicas: options.maxReplicas,
    sizes,
    default_min_size: sizes[0]!,
    default_max_size: sizes[sizes.length - 1]!
  })
}

/**
 * The first start's cluster size: the catalog's largest within 2 CPU / 8 GiB (the default
 * catalog's 2 CPU / 8 GiB), else its smallest; always a size the catalog offers.
 */
export const firstStartSize = (catalog: SizeCatalog): SizeOption =>
  [...catalog.sizes].reverse().find((s) => s.cpu_cores <= 2 && s.memory_gib <= 8) ??
  catalog.default_min_size

const same = (a: ClusterSize, b: ClusterSize) =>
  a.cpu_cores === b.cpu_cores && a.memory_gib === b.memory_gib

const label = (size: ClusterSize) =>
  `{cpu_cores: ${size.cpu_cores}, memory_gib: ${size.memory_gib}}`

/** Orders sizes by cores, then memory: "within the bounds" compares both. */
const within = (size: ClusterSize, min: ClusterSize, max: ClusterSize) =>
  size.cpu_cores >= min.cpu_cores &&
  size.memory_gib >= min.memory_gib &&
  size.cpu_cores <= max.cpu_cores &&
  size.memory_gib <= max.memory_gib

export interface ResolvedSize {
  readonly replicas: number
  readonly size: ClusterSize
  readonly min: ClusterSize
  readonly max: ClusterSize
}

/**
 * The request's size, replicas and autoscaling bounds, checked against the catalog, and
 * the size against what the host has.
 */
export const resolve = (
  catalog: SizeCatalog,
  request: CreateClusterRequest,
  host: HostCapacity.HostCapacity = HostCapacity.thisHost()
) =>
  Effect.gen(function* () {
    const allowed = catalog.sizes.map(label).join(", ")
    const inCatalog = (size: ClusterSize, what: string) =>
      catalog.sizes.some((s) => same(s, size))
        ? Effect.void
        : Effect.fail(
            new InvalidClusterSize({
              message: `${what} ${label(size)} is not in the size catalog.`,
              hint: `Pick one of: ${allowed} (GET /v1/clusters/sizes).`
            })
          )
    const { min_number_of_replicas: low, max_number_of_replicas: high } = catalog
    if (request.replicas < low || request.replicas > high) {
      return yield* new InvalidClusterSize({
        message: `replicas is ${request.replicas}, outside ${low}..${high}.`,
        hint: `Use a replica count from ${low} through ${high}.`
      })
    }
    yield* inCatalog(request.size, "size")
    const min = request.autoscaling?.min_size ?? catalog.default_min_size
    const max = request.autoscaling?.max_size ?? catalog.default_max_size
    yield* inCatalog(min, "autoscaling.min_size")
    yield* inCatalog(max, "autoscaling.max_size")
    if (!within(min, min, max)) {
      return yield* new InvalidClusterSize({
        message: `autoscaling.min_size ${label(min)} is larger than max_size ${label(max)}.`,
        hint: "Give a min_size no larger than max_size."
      })
    }
    if (!within(request.size, min, max)) {
      return yield* new InvalidClusterSize({
        message: `size ${label(request.size)} lies outside the autoscaling bounds ${label(min)} .. ${label(max)}.`,
        hint: `Pick a size from ${catalog.sizes
          .filter((s) => within(s, min, max))
          .map(label)
          .join(", ")}, or widen the bounds.`
      })
    }
    yield* HostCapacity.check(request.size, host)
    return {
      replicas: request.replicas,
      size: new ClusterSize({ ...request.size }),
      min: new ClusterSize({ ...min }),
      max: new ClusterSize({ ...max })
    } satisfies ResolvedSize
  })
