/**
 * Memory while a large gzip NDJSON body streams in: peak RSS growth of the process
 * (server and client share it; the client only streams a file). The body size is
 * `BENCH_INGEST_MEMORY_MB` of NDJSON before compression (default 128; the issue's
 * figure is 1024).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { createGzip } from "node:zlib"

const LINE_TARGET = 250

function* ndjson(totalBytes: number) {
  let written = 0
  let i = 0
  while (written < totalBytes) {
    const lines: Array<string> = []
    for (let k = 0; k < 256; k++, i++) {
      const line = JSON.stringify({
        i,
        at: new Date(1_700_000_000_000 + i).toISOString(),
        service: `svc-${i % 13}`,
        request: { status: 200 + (i % 4), path: `/items/${i}` },
        message: "x".repeat(LINE_TARGET - 150)
      })
      lines.push(line)
    }
    const text = lines.join("\n") + "\n"
    written += text.length
    yield text
  }
  return i
}

export const measureMemory = async (url: string, token: string) => {
  const megabytes = Number(process.env.BENCH_INGEST_MEMORY_MB ?? "128")
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-mem-")), "body.ndjson.gz")
  await pipeline(
    Readable.from(ndjson(megabytes * 1024 * 1024)),
    createGzip({ level: 1 }),
    fs.createWriteStream(file)
  )
  const compressed = fs.statSync(file).size
  const baseline = process.memoryUsage().rss
  let peak = baseline
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 50)
  const start = performance.now()
  const reply = await fetch(`${url}/v1/tables/memory`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/x-ndjson",
      "content-encoding": "gzip"
    },
    body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: "half"
  } as RequestInit)
  const text = await reply.text()
  const seconds = (performance.now() - start) / 1000
  clearInterval(sampler)
  fs.rmSync(path.dirname(file), { recursive: true, force: true })
  console.log(
    `memory: ${megabytes} MiB NDJSON (${(compressed / 1024 / 1024).toFixed(1)} MiB gzip) → ${reply.status} ${text} in ${seconds.toFixed(1)} s; ` +
      `peak RSS growth ${((peak - baseline) / 1024 / 1024).toFixed(0)} MB (target < 512 MB at 1024 MiB)`
  )
}
