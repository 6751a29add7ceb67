/**
 * What an idle sluice holds and how long it takes to start, as a new user runs it: `npm
 * start` (after the install's `postinstall`, where there is one) on a fresh data directory, timed until `/health` answers, then left alone
 * `BENCH_FOOTPRINT_IDLE_MS` (default 10 s) and every process of its tree read from /proc
 * (npm and its shell included). Then a second cluster is created and left idle, then
 * paused, then resumed and left idle, each read again; then the service is stopped
 * (SIGINT to its process group, as
 * Ctrl-C does) and started again on the same directory. The same runs for the commit
 * `BENCH_FOOTPRINT_BASE` (default: the last that starts before the footprint work; the
 * next few only start with files their authors had not committed yet), checked out into
 * a temporary git worktree that shares this checkout's `node_modules`, so both columns
 * come from one run on one machine. Linux only.
 *
 * RSS counts a page shared by several processes (chDB's library, mapped by every engine
 * worker) in each of them; "tree, shared once" counts each process's private memory
 * plus every mapped file's resident pages once, which is what the machine pays.
 */
import { spawn } from "node:child_process"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const BASE = process.env.BENCH_FOOTPRINT_BASE ?? "be473b9"
const IDLE_MS = Number(process.env.BENCH_FOOTPRINT_IDLE_MS ?? "10000")
const EMAIL = "footprint@example.com"
const PASSWORD = "footprint bench password"
const ROOT = path.join(import.meta.dirname, "../..")
const q = "?organization=default"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

interface Reading {
  readonly pid: number
  readonly label: string
  readonly rss: number
  readonly anon: number
  /** Resident pages of each mapped file, by file. */
  readonly files: ReadonlyMap<string, number>
}

const statusField = (status: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? "0") * 1024

const parentOf = (pid: string) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
}

/** `root` and every process below it. */
const treeOf = (root: number): Array<number> => {
  const children = new Map<number, Array<number>>()
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const parent = parentOf(entry)
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
    } catch {
      // exited meanwhile
    }
  }
  const found: Array<number> = []
  const visit = (pid: number) => {
    found.push(pid)
    for (const child of children.get(pid) ?? []) visit(child)
  }
  visit(root)
  return found
}

const labelOf = (command: string) => {
  if (command.startsWith("npm")) return "npm"
  if (command.startsWith("sh ") || command.startsWith("/bin/sh")) return "sh (npm's script)"
  if (command.startsWith("sluice-engine")) return "engine worker"
  if (command.includes("engine-worker") || command.includes("EngineWorker")) return "spare worker"
  if (command.includes("/bin/esbuild")) return "esbuild service"
  if (command.includes("main") || command.includes("start.mjs")) return "service"
  return command.slice(0, 60)
}

/** Resident bytes per mapped file, from smaps. */
const filePages = (pid: number) => {
  const files = new Map<string, number>()
  let file: string | undefined
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(\S*)/.exec(line)
    if (mapping !== null) {
      file = mapping[1] !== "0" && mapping[2]!.startsWith("/") ? mapping[2] : undefined
      continue
    }
    if (file !== undefined && line.startsWith("Rss:")) {
      files.set(file, (files.get(file) ?? 0) + statusField(line, "Rss"))
    }
  }
  return files
}

const readTree = (root: number): Array<Reading> =>
  treeOf(root).flatMap((pid) => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")
      return [
        {
          pid,
          label: labelOf(command),
          rss: statusField(status, "VmRSS"),
          anon: statusField(status, "RssAnon") + statusField(status, "RssShmem"),
          files: filePages(pid)
        }
      ]
    } catch {
      return []
    }
  })

const total = (tree: ReadonlyArray<Reading>) => tree.reduce((sum, p) => sum + p.rss, 0)
/** Private memory of each process, plus each file's resident pages once (its largest). */
const sharedOnce = (tree: ReadonlyArray<Reading>) => {
  const files = new Map<string, number>()
  for (const p of tree)
    for (const [file, bytes] of p.files) files.set(file, Math.max(files.get(file) ?? 0, bytes))
  return tree.reduce((sum, p) => sum + p.anon, 0) + [...files.values()].reduce((a, b) => a + b, 0)
}

interface Service {
  readonly pid: number
  readonly url: string
  readonly startMs: number
  /** The 1-minute load average when it answered: times on a busy machine say little alone. */
  readonly load: number
}

/** `npm start` in `root` on `dataDir`, until `/health` answers. */
const start = async (root: string, dataDir: string): Promise<Service> => {
  const begin = performance.now()
  const child = spawn("npm", ["start"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      SLUICE_DATA_DIR: dataDir,
      SLUICE_PORT: "0",
      SLUICE_GRPC_PORT: "0",
      SLUICE_ADMIN_EMAIL: EMAIL,
      SLUICE_ADMIN_PASSWORD: PASSWORD
    }
  })
  let output = ""
  child.stdout.setEncoding("utf8")
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (text: string) => {
      output += text
      const found = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (found !== undefined) resolve(found)
    })
    child.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${output}`)))
  })
  while (true) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false
    )
    if (ok) break
    await sleep(20)
  }
  return { pid: child.pid!, url, startMs: performance.now() - begin, load: os.loadavg()[0]! }
}

/** Ctrl-C to the process group, then waits until every process of the tree is gone. */
const stop = async (service: Service) => {
  const tree = treeOf(service.pid)
  process.kill(-service.pid, "SIGINT")
  for (const pid of tree) {
    while (fs.existsSync(`/proc/${pid}`)) await sleep(50)
  }
}

const api = async (
  service: Service,
  token: string,
  method: string,
  url: string,
  body?: unknown
) => {
  const reply = await fetch(`${service.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await reply.text()
  if (!reply.ok) throw new Error(`${method} ${url}: ${reply.status} ${text}`)
  return JSON.parse(text) as { id: string; status: { phase: string } }
}

const until = async (service: Service, token: string, id: string, phase: string) => {
  const deadline = performance.now() + 120_000
  while ((await api(service, token, "GET", `/v1/clusters/${id}${q}`)).status.phase !== phase) {
    if (performance.now() > deadline) throw new Error(`cluster ${id} never reached ${phase}`)
    await sleep(50)
  }
}

interface Timed {
  readonly ms: number
  readonly load: number
}

const timed = (t: Timed) => `${seconds(t.ms)} (load ${t.load.toFixed(1)})`

interface SideFigures {
  readonly firstStart: Timed
  readonly restart: Timed
  readonly idle: ReadonlyArray<Reading>
  readonly secondCluster: ReadonlyArray<Reading>
  readonly paused: ReadonlyArray<Reading>
  readonly resumed: ReadonlyArray<Reading>
  readonly resume: Timed
  readonly restarted: ReadonlyArray<Reading>
}

const measure = async (root: string): Promise<SideFigures> => {
  // What `npm install` does after installing (bundles, templates), where the side has it.
  execFileSync("npm", ["run", "--if-present", "postinstall"], { cwd: root, stdio: "ignore" })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-footprint-"))
  try {
    const first = await start(root, dataDir)
    let idle: Array<Reading>, secondCluster: Array<Reading>, paused: Array<Reading>
    let resumed: Array<Reading>, resume: Timed
    try {
      await sleep(IDLE_MS)
      idle = readTree(first.pid)
      const login = await fetch(`${first.url}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD })
      })
      const { token } = (await login.json()) as { token: string }
      const { id } = await api(first, token, "POST", `/v1/clusters${q}`, {
        name: "footprint",
        replicas: 1,
        size: { cpu_cores: 1, memory_gib: 4 }
      })
      await until(first, token, id, "ready")
      await sleep(IDLE_MS)
      secondCluster = readTree(first.pid)
      await api(first, token, "POST", `/v1/clusters/${id}/stop${q}`)
      await until(first, token, id, "paused")
      await sleep(IDLE_MS)
      paused = readTree(first.pid)
      const resuming = performance.now()
      await api(first, token, "POST", `/v1/clusters/${id}/resume${q}`)
      await until(first, token, id, "ready")
      resume = { ms: performance.now() - resuming, load: os.loadavg()[0]! }
      await sleep(IDLE_MS)
      resumed = readTree(first.pid)
      // Paused again, so the restart brings back the default cluster alone, as before.
      await api(first, token, "POST", `/v1/clusters/${id}/stop${q}`)
      await until(first, token, id, "paused")
    } finally {
      await stop(first)
    }
    const second = await start(root, dataDir)
    let restarted: Array<Reading>
    try {
      await sleep(IDLE_MS)
      restarted = readTree(second.pid)
    } finally {
      await stop(second)
    }
    return {
      firstStart: { ms: first.startMs, load: first.load },
      restart: { ms: second.startMs, load: second.load },
      idle,
      secondCluster,
      paused,
      resumed,
      resume,
      restarted
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The base commit's tree, checked out once and kept for later runs. */
const baseCheckout = () => {
  const commit = execFileSync("git", ["rev-parse", "--short", BASE], { cwd: ROOT })
    .toString()
    .trim()
  const dir = path.join(os.tmpdir(), `sluice-footprint-${commit}`)
  if (!fs.existsSync(path.join(dir, "package.json"))) {
    execFileSync("git", ["worktree", "add", "--detach", "--force", dir, commit], {
      cwd: ROOT,
      stdio: "ignore"
    })
  }
  const modules = path.join(dir, "node_modules")
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(ROOT, "node_modules"), modules)
  return { commit, dir }
}

const processRows = (tree: ReadonlyArray<Reading>) => {
  const rows = new Map<string, Array<number>>()
  for (const p of tree) rows.set(p.label, [...(rows.get(p.label) ?? []), p.rss])
  return rows
}

export const footprint = async () => {
  const base = baseCheckout()
  const before = await measure(base.dir)
  const after = await measure(ROOT)
  const column = (text: string) => text.padStart(22)
  console.log(
    `idle ${seconds(IDLE_MS)} after each step; load average ${os.loadavg()[0]!.toFixed(1)} (${os.cpus().length} cores)`
  )
  console.log(`${"".padEnd(34)}${column(`before (${base.commit})`)}${column("after")}`)
  const row = (label: string, a: string, b: string) =>
    console.log(`${label.padEnd(34)}${column(a)}${column(b)}`)
  row("first start → /health", timed(before.firstStart), timed(after.firstStart))
  row("restart → /health", timed(before.restart), timed(after.restart))
  for (const [step, pick] of [
    ["idle after first start", (f: SideFigures) => f.idle],
    ["idle after restart", (f: SideFigures) => f.restarted]
  ] as const) {
    console.log(`${step}, RSS per process:`)
    const b = processRows(pick(before))
    const a = processRows(pick(after))
    for (const label of new Set([...b.keys(), ...a.keys()])) {
      const list = (values: ReadonlyArray<number> | undefined) =>
        values === undefined ? "-" : values.map(mb).join(" + ")
      row(`  ${label}`, list(b.get(label)), list(a.get(label)))
    }
    row("  tree RSS", mb(total(pick(before))), mb(total(pick(after))))
    row("  tree, shared once", mb(sharedOnce(pick(before))), mb(sharedOnce(pick(after))))
  }
  const delta = (
    f: SideFigures,
    step: ReadonlyArray<Reading>,
    of: (t: ReadonlyArray<Reading>) => number
  ) => mb(of(step) - of(f.idle))
  row(
    "second cluster idle: tree RSS +",
    delta(before, before.secondCluster, total),
    delta(after, after.secondCluster, total)
  )
  row(
    "  shared once +",
    delta(before, before.secondCluster, sharedOnce),
    delta(after, after.secondCluster, sharedOnce)
  )
  row("second cluster resume → ready", timed(before.resume), timed(after.resume))
  row(
    "second cluster resumed: tree RSS +",
    delta(before, before.resumed, total),
    delta(after, after.resumed, total)
  )
  row(
    "  shared once +",
    delta(before, before.resumed, sharedOnce),
    delta(after, after.resumed, sharedOnce)
  )
  row(
    "second cluster paused: tree RSS +",
    delta(before, before.paused, total),
    delta(after, after.paused, total)
  )
  row(
    "  shared once +",
    delta(before, before.paused, sharedOnce),
    delta(after, after.paused, sharedOnce)
  )
}
