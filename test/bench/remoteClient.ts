/**
 * HTTP clients in a process of their own, as a service's clients are: the parent sends
 * `{ client, path, body }` over IPC, this posts it on that client's one keep-alive
 * connection and answers with the milliseconds from sending to the last byte of the
 * response, or an error. `minimal` is `minimalHttp.ts`; `undici` is Node's own client.
 * Run by `fork`ing this file with the server's URL and a bearer token.
 */
import { Agent, request } from "undici"
import { connectMinimal } from "./minimalHttp.js"

export type RemoteClient = "minimal" | "undici"

export interface RemoteCall {
  readonly client: RemoteClient
  readonly path: string
  readonly body: unknown
}

export type RemoteReply =
  { readonly ms: number; readonly status: number } | { readonly error: string }

const [url, token] = process.argv.slice(2)
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
const dispatcher = new Agent({ connections: 1 })
const minimal = await connectMinimal(url!)

const send = async ({ client, path, body }: RemoteCall) => {
  const text = JSON.stringify(body)
  if (client === "minimal") return (await minimal.post(path, headers, text)).status
  const reply = await request(`${url}${path}`, { method: "POST", dispatcher, headers, body: text })
  await reply.body.text()
  return reply.statusCode
}

const call = async (message: RemoteCall): Promise<RemoteReply> => {
  const start = performance.now()
  const status = await send(message)
  return { ms: performance.now() - start, status }
}

process.on("message", (message: RemoteCall) => {
  call(message).then(
    (reply) => process.send!(reply),
    (error: unknown) => process.send!({ error: String(error) })
  )
})
process.on("disconnect", () => {
  minimal.close()
  void dispatcher.close().finally(() => process.exit(0))
})
process.send!("ready")
