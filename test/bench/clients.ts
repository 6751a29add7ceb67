/** What the throughput benchmarks share: timing a run, and concurrent clients over batches. */

/** Seconds `run` took. */
export const timed = async (run: () => Promise<void>) => {
  const start = performance.now()
  await run()
  return (performance.now() - start) / 1000
}

/** Runs `each` over `batches` with `clients` concurrent workers, each taking the next. */
export const pool = async <A>(
  clients: number,
  batches: ReadonlyArray<A>,
  each: (batch: A) => Promise<void>
) => {
  let next = 0
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < batches.length) await each(batches[next++]!)
    })
  )
}

/**
 * Seconds each side took to send its batches, in `rounds` interleaved rounds whose first
 * side rotates, so background merges in the engine fall on every side alike.
 */
export const timeSides = async <K extends string>(
  rounds: number,
  clients: number,
  sides: Record<
    K,
    { readonly batches: ReadonlyArray<Uint8Array>; readonly send: (b: Uint8Array) => Promise<void> }
  >
) => {
  const names = Object.keys(sides) as Array<K>
  const seconds = Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>
  for (let round = 0; round < rounds; round++) {
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)]
    for (const name of order) {
      const { batches, send } = sides[name]
      const perRound = batches.length / rounds
      const some = batches.slice(round * perRound, (round + 1) * perRound)
      seconds[name] += await timed(() => pool(clients, some, send))
    }
  }
  return seconds
}

/**
 * `rounds` rounds over `batches`: each round sends its share through every side, the
 * first side rotating, so drift over the run falls on every side alike. Returns each
 * side's seconds per round.
 */
export const roundsOf = async <K extends string, A>(
  rounds: number,
  clients: number,
  batches: ReadonlyArray<A>,
  sides: Record<K, (batch: A) => Promise<void>>
) => {
  const names = Object.keys(sides) as Array<K>
  const seconds = Object.fromEntries(names.map((name) => [name, [] as Array<number>])) as Record<
    K,
    Array<number>
  >
  const perRound = Math.floor(batches.length / rounds)
  for (let round = 0; round < rounds; round++) {
    const some = batches.slice(round * perRound, (round + 1) * perRound)
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)]
    for (const name of order)
      seconds[name].push(await timed(() => pool(clients, some, sides[name])))
  }
  return seconds
}

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The value below which `p` (0–1) of `values` fall (nearest rank). */
export const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
}
