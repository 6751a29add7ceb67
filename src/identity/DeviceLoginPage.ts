/**
 * The approval page of the command-line login: plain HTML forms, no script. Every value
 * that reaches the page (user codes, emails, messages) goes through `escapeHtml`.
 */

/** Text safe in HTML element content and in double- or single-quoted attributes. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c
  )

const FORM_ACTION = "/v1/auth/cli/device"
const DECISION_ACTION = "/v1/auth/cli/device/decision"

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · sluice</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #222; }
label { display: block; margin: .75rem 0 .25rem; }
input { width: 100%; padding: .4rem; box-sizing: border-box; }
button { margin: 1rem .5rem 0 0; padding: .5rem 1rem; }
.code { font: bold 2rem monospace; letter-spacing: .2rem; }
.error { color: #a00; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`

const error = (message: string | undefined) =>
  message === undefined ? "" : `<p class="error">${escapeHtml(message)}</p>\n`

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`

/** Asks for the code the terminal shows (the page was opened without one, or a bad one). */
export const codePage = (message?: string) =>
  layout(
    "Command-line login",
    `${error(message)}<form method="get" action="${FORM_ACTION}">
<label for="user_code">Code shown by the command line</label>
<input id="user_code" name="user_code" autocomplete="off" placeholder="BCDF-GHJK" required>
<button type="submit">Continue</button>
</form>`
  )

/** Sign in to approve `userCode`. */
export const signInPage = (userCode: string, options: { message?: string; email?: string } = {}) =>
  layout(
    "Sign in to approve a command-line login",
    `${error(options.message)}<p>Code: <span class="code">${escapeHtml(userCode)}</span></p>
<form method="post" action="${FORM_ACTION}">
${hidden("user_code", userCode)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" value="${escapeHtml(options.email ?? "")}" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p>Signed in to the sluice console? <a href="/device?user_code=${escapeHtml(encodeURIComponent(userCode))}">Approve it there</a>.</p>`
  )

/** Who asks: the program as it named itself, the address it came from, and when (UTC). */
export interface LoginOrigin {
  readonly client: string
  readonly clientName: string | null
  readonly clientVersion: string | null
  /** Epoch milliseconds. */
  readonly startedAt: number
}

const originLine = (origin: LoginOrigin) => {
  const program =
    origin.clientName === null
      ? "A program that did not name itself"
      : `<strong>${escapeHtml([origin.clientName, origin.clientVersion ?? ""].join(" ").trim())}</strong>`
  const at = new Date(origin.startedAt).toISOString().slice(0, 19).replace("T", " ")
  return `<p>Requested by ${program} from ${escapeHtml(origin.client)} at ${at} UTC.</p>`
}

/** The signed-in user's choice; the form carries the code and this page's session. */
export const decisionPage = (
  userCode: string,
  email: string,
  pageSession: string,
  origin: LoginOrigin
) =>
  layout(
    "Approve this command-line login?",
    `<p>Signed in as <strong>${escapeHtml(email)}</strong>.</p>
<p>Code: <span class="code">${escapeHtml(userCode)}</span></p>
${originLine(origin)}
<p>Approve only if you started this login yourself just now and your terminal shows this
same code. Approving gives that command line your access for 12 hours.</p>
<form method="post" action="${DECISION_ACTION}">
${hidden("user_code", userCode)}
${hidden("page_token", pageSession)}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`
  )

export const decidedPage = (decision: "approve" | "deny") =>
  decision === "approve"
    ? layout("Login approved", "<p>Return to your terminal: it is signed in.</p>")
    : layout("Login denied", "<p>The command line was not signed in. You can close this page.</p>")

/** A login that can no longer be approved (expired, used, denied). */
export const endedPage = (message: string) =>
  layout(
    "This login cannot be approved",
    `${error(message)}<p>Start the login again on the command line.</p>`
  )
