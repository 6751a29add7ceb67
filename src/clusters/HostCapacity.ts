/**
 * What this host can back: a cluster's engine runs here with its size as its limits, so
 * a size with more memory or more CPU cores than the host has is refused (400) rather
 * than promised.
 */
import { Effect } from "effect"
import * as os from "node:os"
import type { ClusterSize } from "../../domain/api/ClusterModels.js"
import { InvalidClusterSize } from "../../domain/Errors.js"

export interface HostCapacity {
  readonly cpuCores: number
  readonly memoryBytes: number
}

const GIB = 1024 ** 3

export const thisHost = (): HostCapacity => ({
  cpuCores: os.availableParallelism(),
  memoryBytes: os.totalmem()
})

const gib = (bytes: number) => `${Math.floor((bytes / GIB) * 10) / 10} GiB`

/** Fails when `size` asks for more memory or cores than `host` has, naming the limit. */
export const check = (size: ClusterSize, host: HostCapacity) => {
  const most = `Pick a size of at most ${host.cpuCores} CPU cores and ${gib(host.memoryBytes)} of memory (GET /v1/clusters/sizes).`
  if (size.memory_gib * GIB > host.memoryBytes) {
    return Effect.fail(
      new InvalidClusterSize({
        message: `size asks for ${size.memory_gib} GiB of memory; this host has ${gib(host.memoryBytes)}.`,
        hint: most
      })
    )
  }
  if (size.cpu_cores > host.cpuCores) {
    return Effect.fail(
      new InvalidClusterSize({
        message: `size asks for ${size.cpu_cores} CPU cores; this host has ${host.cpuCores}.`,
        hint: most
      })
    )
  }
  return Effect.void
}
