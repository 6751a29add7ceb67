import { useState } from "preact/hooks"
import { Redacted } from "effect"
import { LoginRequest } from "../../../domain/api/AuthApi.js"
import { ApiFailure, call, session } from "./api.js"
import { ErrorNote } from "./ErrorNote.js"

/**
 * Password sign-in; shown over the views when a session ends, so nothing typed is lost.
 * `note` says why a page asks for it (the command-line login's approval page).
 */
export const SignIn = ({
  onSignedIn,
  expired,
  note = null
}: {
  onSignedIn: () => void
  expired: boolean
  note?: string | null
}) => {
  const [email, setEmail] = useState(session.email())
  const [password, setPassword] = useState("")
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setFailure(null)
    try {
      const signedIn = await call((client) =>
        client.auth.login({
          payload: LoginRequest.make({ email, password: Redacted.make(password) })
        })
      )
      session.set(signedIn.token, signedIn.email)
      setPassword("")
      onSignedIn()
    } catch (error) {
      setFailure(
        error instanceof ApiFailure ? error : new ApiFailure("internal", String(error), "", null)
      )
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class={expired ? "overlay" : "signin-page"}>
      <form class="signin" onSubmit={submit} aria-labelledby="signin-title">
        <h1 id="signin-title">{expired ? "Your session ended" : "Sign in to sluice"}</h1>
        {expired ? <p class="muted">Sign in again to carry on; what you typed is kept.</p> : null}
        {note === null ? null : <p class="muted">{note}</p>}
        <label>
          Email
          <input
            type="email"
            name="email"
            autocomplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <ErrorNote failure={failure} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </div>
  )
}
