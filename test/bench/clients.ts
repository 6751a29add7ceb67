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
