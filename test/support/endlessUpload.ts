/**
 * An upload that never ends: `piece` POSTed again and again, chunked, for as long as the
 * server reads. Answers with the server's reply, which must come while the upload goes
 * on: it shows the server stopped reading at its limit rather than waiting for the end.
 */
import { Effect } from "effect"
import * as http from "node:http"
import { Readable } from "node:stream"
import type { Reply } from "./server.js"

export const endlessUpload = (
  url: string,
  headers: Readonly<Record<string, string>>,
  piece: Uint8Array
) =>
  Effect.async<Reply>((resume) => {
    const upload = new Readable({
      read() {
        this.push(piece)
      }
    })
    const request = http.request(url, { method: "POST", headers })
    let answered = false
    request.on("response", (response) => {
      answered = true
      let text = ""
      const done = () => {
        if (upload.destroyed) return
        upload.destroy()
        request.destroy()
        let json: unknown = undefined
        try {
          json = JSON.parse(text)
        } catch {
          json = undefined
        }
        resume(
          Effect.succeed({ status: response.statusCode ?? 0, headers: new Headers(), text, json })
        )
      }
      response.setEncoding("utf8")
      response.on("data", (part: string) => (text += part))
      response.on("end", done)
      response.on("error", done)
    })
    // Once answered, the server closes the connection under the upload: expected.
    request.on("error", (error) => {
      if (!answered) resume(Effect.die(error))
    })
    upload.pipe(request)
    return Effect.sync(() => {
      upload.destroy()
      request.destroy()
    })
  })
