/**
 * `npm run bench [name …]`: runs the named benchmark scripts (all when none is named).
 * Each prints its own numbers, comparing sluice with the engine it sits on in one run.
 */
import { cli } from "./cli.js"
import { consoleBench } from "./console.js"
import { footprint } from "./footprint.js"
import { hec } from "./hec.js"
import { ingest } from "./ingest.js"
import { lifecycle } from "./lifecycle.js"
import { login } from "./login.js"
import { metrics, metricsLarge } from "./metrics.js"
import { metricsDayAlone } from "./metricsDay.js"
import { otlp } from "./otlp.js"
import { pipeline } from "./pipeline.js"
import { propagation } from "./propagation.js"
import { query } from "./query.js"
import { scale } from "./scale.js"
import { scaleWrites } from "./scaleWrites.js"
import { spl } from "./spl.js"

const benchmarks: Record<string, () => Promise<void>> = {
  ingest,
  query,
  otlp,
  hec,
  lifecycle,
  login,
  spl,
  metrics,
  "metrics-day": metricsDayAlone,
  "metrics-large": metricsLarge,
  pipeline,
  propagation,
  scale,
  "scale-writes": scaleWrites,
  cli,
  footprint,
  console: consoleBench
}

const wanted = process.argv.slice(2)
const names = wanted.length > 0 ? wanted : Object.keys(benchmarks)
if (names.length === 0) console.log("No benchmarks yet.")
for (const name of names) {
  const bench = benchmarks[name]
  if (bench === undefined) {
    console.error(
      `Unknown benchmark '${name}'. Known: ${Object.keys(benchmarks).join(", ") || "none"}.`
    )
    process.exitCode = 1
    continue
  }
  console.log(`# ${name}`)
  await bench()
}
