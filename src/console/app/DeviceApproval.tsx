import { useEffect, useState } from "preact/hooks"
import { DeviceApprovalRequest } from "../../../domain/api/DeviceLoginApi.js"
import type { DeviceLoginAwaiting } from "../../../domain/api/DeviceLoginApi.js"
import type { DeviceDecision } from "../../../domain/DeviceAuthorization.js"
import { ApiFailure, call, session } from "./api.js"
import { ErrorNote } from "./ErrorNote.js"
import { navigate } from "./route.js"
import { Time } from "./time.js"

const asFailure = (error: unknown) =>
  error instanceof ApiFailure ? error : new ApiFailure("internal", String(error), "", null)

/**
 * `/device?user_code=…`: a command-line login (`sluice login`) approved or denied by the
 * signed-in user, after seeing its code, the program and address that started it, and when.
 */
export const DeviceApproval = () => {
  const [typed, setTyped] = useState(
    () => new URLSearchParams(location.search).get("user_code") ?? ""
  )
  const [asked, setAsked] = useState(typed)
  const [login, setLogin] = useState<DeviceLoginAwaiting | null>(null)
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [decided, setDecided] = useState<DeviceDecision | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    if (asked === "") return
    const controller = new AbortController()
    setLogin(null)
    setFailure(null)
    call(
      (client) => client.deviceLogin.pending({ urlParams: { user_code: asked } }),
      controller.signal
    ).then(setLogin, (error: unknown) => {
      if (!controller.signal.aborted) setFailure(asFailure(error))
    })
    return () => controller.abort()
  }, [asked])
  const decide = async (decision: DeviceDecision) => {
    if (login === null) return
    setBusy(true)
    setFailure(null)
    try {
      const answer = await call((client) =>
        client.deviceLogin.approve({
          payload: DeviceApprovalRequest.make({ user_code: login.user_code, decision })
        })
      )
      setDecided(answer.decision)
    } catch (error) {
      setFailure(asFailure(error))
    } finally {
      setBusy(false)
    }
  }
  const lookUp = (event: Event) => {
    event.preventDefault()
    navigate(`/device?user_code=${encodeURIComponent(typed.trim())}`, true)
    setAsked(typed.trim())
  }
  return (
    <div class="signin-page">
      <section class="signin device" aria-labelledby="device-title">
        <h1 id="device-title">Command-line login</h1>
        {decided !== null ? (
          <p role="status">
            {decided === "approve"
              ? "Approved: the command line is signed in as you. You can close this page."
              : "Denied: the command line was not signed in."}
          </p>
        ) : login === null ? (
          <form class="form" onSubmit={lookUp}>
            <label>
              Code shown by the command line
              <input
                value={typed}
                autocomplete="off"
                placeholder="BCDF-GHJK"
                required
                onInput={(e) => setTyped(e.currentTarget.value)}
              />
            </label>
            <button type="submit" class="primary">
              Continue
            </button>
          </form>
        ) : (
          <>
            <p class="big code" aria-label="Login code">
              {login.user_code}
            </p>
            <dl class="device-facts">
              <dt>Requested by</dt>
              <dd aria-label="Requesting program">
                {login.client_name === null
                  ? "a program that did not name itself"
                  : `${login.client_name}${login.client_version === null ? "" : ` ${login.client_version}`}`}
              </dd>
              <dt>Requested from</dt>
              <dd aria-label="Requesting client">{login.client_address}</dd>
              <dt>Started</dt>
              <dd aria-label="Started">
                <Time value={login.started_at} />
              </dd>
              <dt>Signed in as</dt>
              <dd>{session.email()}</dd>
            </dl>
            <p class="muted">
              Approve only if you started this login yourself just now and your terminal shows this
              same code. Approving gives that command line your access for 12 hours.
            </p>
            <div class="actions">
              <button
                type="button"
                class="primary"
                disabled={busy}
                onClick={() => void decide("approve")}
              >
                Approve
              </button>
              <button
                type="button"
                class="danger"
                disabled={busy}
                onClick={() => void decide("deny")}
              >
                Deny
              </button>
            </div>
          </>
        )}
        <ErrorNote failure={failure} />
      </section>
    </div>
  )
}
