import type { SplStage } from "../../../../domain/api/SplApi.js"
import { formatCount } from "../sql/resultStream.js"
import { formatPercent, stageShare } from "./stageShare.js"

const rowsOf = (stage: SplStage) =>
  stage.output_rows === null
    ? "—"
    : stage.truncated
      ? `≥ ${formatCount(stage.output_rows)}`
      : formatCount(stage.output_rows)

/** Each stage's rows and, where the rule allows, what it kept and what it took away. */
export const Funnel = ({
  stages,
  explained
}: {
  stages: ReadonlyArray<SplStage>
  explained: ReadonlyArray<string> | null
}) => (
  <table class="list funnel" aria-label="Stages">
    <thead>
      <tr>
        <th>Stage</th>
        <th class="num">Rows</th>
        <th class="num">Kept</th>
        <th class="num">Affected</th>
        <th class="num">Affected %</th>
      </tr>
    </thead>
    <tbody>
      {stages.map((stage, i) => {
        const share = stageShare(stages[i - 1], stage)
        return (
          <tr key={i}>
            <td>
              <code>{stage.expression === "" ? stage.command : stage.expression}</code>
              {explained?.[i] === undefined ? null : <pre class="sql">{explained[i]}</pre>}
            </td>
            <td class="num">{rowsOf(stage)}</td>
            <td class="num">{share === null ? "" : formatPercent(share.keptPercent)}</td>
            <td class="num">{share === null ? "" : formatCount(share.affectedRows)}</td>
            <td class="num">{share === null ? "" : formatPercent(share.affectedPercent)}</td>
          </tr>
        )
      })}
    </tbody>
  </table>
)
