import type { ComponentChildren } from "preact"
import { formatCell } from "../sql/resultStream.js"

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The search's bare terms and phrases of its first stage, to highlight in `_raw`. */
export const termsOf = (spl: string): ReadonlyArray<string> => {
  const first = spl.split("|")[0] ?? ""
  const terms: Array<string> = []
  for (const match of first.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    const word = match[1] ?? match[2] ?? ""
    if (match[2] !== undefined && (/[=<>()]/.test(word) || /^(AND|OR|NOT|search)$/i.test(word)))
      continue
    const cleaned = word.replace(/\*/g, "")
    if (cleaned !== "") terms.push(cleaned)
  }
  return terms
}

const highlighted = (text: string, terms: ReadonlyArray<string>): ComponentChildren => {
  if (terms.length === 0) return text
  const pattern = new RegExp(`(${terms.map(escapeRegExp).join("|")})`, "gi")
  return text.split(pattern).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))
}

/** Events as their raw text, matches marked, each one's fields behind a disclosure. */
export const Events = ({
  events,
  terms
}: {
  events: ReadonlyArray<Record<string, unknown>>
  terms: ReadonlyArray<string>
}) => (
  <ol class="events" aria-label="Events">
    {events.map((event, i) => (
      <li key={i}>
        <div class="event-time muted small">{formatCell(event._time)}</div>
        <div class="event-raw">{highlighted(formatCell(event._raw), terms)}</div>
        <details>
          <summary class="small">Fields</summary>
          <table class="list small">
            <tbody>
              {Object.entries(event)
                .filter(([, value]) => value !== null && value !== undefined)
                .map(([name, value]) => (
                  <tr key={name}>
                    <th>{name}</th>
                    <td>{formatCell(value)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </details>
      </li>
    ))}
  </ol>
)
