/**
 * What an engine worker inherits of the service's environment: what a process needs to
 * run and find its temporary directory, time zone and locale, and nothing of the
 * service's settings. The settings carry secrets (the admin password, the signing key,
 * storage credentials) and a worker has no use for them: it is told what it needs over
 * its socket.
 */
const INHERITED = ["PATH", "HOME", "TMPDIR", "TZ", "LANG", "LC_ALL", "LC_CTYPE"] as const

export const workerEnvironment = (
  parent: NodeJS.ProcessEnv,
  threadPoolSize: string
): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { UV_THREADPOOL_SIZE: threadPoolSize }
  for (const name of INHERITED) if (parent[name] !== undefined) env[name] = parent[name]
  return env
}
