import type { FieldStatistics } from "../../../../domain/api/SplApi.js"
import { formatCell, formatCount } from "../sql/resultStream.js"

/** Each field's type, coverage, distinct values and top five; a value adds itself to the search. */
export const FieldSidebar = ({
  fields,
  onValue
}: {
  fields: ReadonlyArray<FieldStatistics>
  onValue: (field: string, value: string, exclude: boolean) => void
}) => (
  <aside class="fields" aria-label="Fields">
    <h2>Fields</h2>
    {fields.map((field) => (
      <details key={field.field}>
        <summary>
          <span class="field-name">{field.field}</span>{" "}
          <span class="muted small">
            {field.type} · {(field.coverage * 100).toFixed(0)} % · {formatCount(field.distinct)}{" "}
            distinct
          </span>
        </summary>
        <ul class="plain">
          {field.top_values.map((top) => {
            const value = formatCell(top.value)
            return (
              <li key={value}>
                <button
                  type="button"
                  class="link"
                  title="Click adds it to the search, Alt+click excludes it"
                  onClick={(e) => onValue(field.field, value, e.altKey)}
                >
                  {value}
                </button>{" "}
                <span class="muted small">{formatCount(top.count)}</span>
              </li>
            )
          })}
        </ul>
      </details>
    ))}
  </aside>
)
