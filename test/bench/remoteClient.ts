/**
 * An HTTP client in a process of its own, as a service's clients are: the parent sends
 * `{ path, body }` over IPC, this posts it on one keep-alive connection (undici) and
 * answers with the milliseconds from sending to the last byte of the response, or an
 * error. Run by `fork`ing this file with the server's URL and a bearer token.
 */
import { Agent, request } from "undici"

export interface RemoteCall {
  readonly path: string
  readonly body: unknown
}

export type RemoteReply =
  { readonly ms: number; readonly status: number } | { readonly error: string }

const [url, token] = process.argv.slice(2)
const dispatcher = new Agent({ connections: 1 })

const call = async ({ path, body }: RemoteCall): Promise<RemoteReply> => {
  const start = performance.now()
  const reply = await request(`${url}${path}`, {
    method: "POST",
    dispatcher,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  await reply.body.text()
  return { ms: performance.now() - start, status: reply.statusCode }
}

process.on("message", (message: RemoteCall) => {
  call(message).then(
    (reply) => process.send!(reply),
    (error: unknown) => process.send!({ error: String(error) })
  )
})
process.on("disconnect", () => void dispatcher.close().finally(() => process.exit(0)))
process.send!("ready")
