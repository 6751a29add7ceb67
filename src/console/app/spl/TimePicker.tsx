const PRESETS: ReadonlyArray<readonly [string, string]> = [
  ["-15m", "Last 15 minutes"],
  ["-1h", "Last hour"],
  ["-4h", "Last 4 hours"],
  ["-24h", "Last 24 hours"],
  ["-7d", "Last 7 days"],
  ["-30d", "Last 30 days"],
  ["-365d", "Last year"]
]

const toLocalInput = (epoch: string) => {
  const date = new Date(Number(epoch) * 1000)
  if (Number.isNaN(date.getTime())) return ""
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

const fromLocalInput = (value: string) =>
  value === "" ? "" : String(Math.floor(new Date(value).getTime() / 1000))

/** `earliest`/`latest` as the API takes them: a relative preset, or two absolute times. */
export const TimePicker = ({
  earliest,
  latest,
  onChange
}: {
  earliest: string
  latest: string
  onChange: (earliest: string, latest: string) => void
}) => {
  const absolute = /^\d+$/.test(earliest)
  return (
    <div class="time-picker" role="group" aria-label="Time range">
      <select
        aria-label="Time range"
        value={absolute ? "absolute" : earliest}
        onChange={(e) => {
          const value = e.currentTarget.value
          if (value === "absolute")
            onChange(
              String(Math.floor(Date.now() / 1000) - 3600),
              String(Math.floor(Date.now() / 1000))
            )
          else onChange(value, "now")
        }}
      >
        {PRESETS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
        {!absolute && !PRESETS.some(([value]) => value === earliest) ? (
          <option value={earliest}>{earliest}</option>
        ) : null}
        <option value="absolute">Between…</option>
      </select>
      {absolute ? (
        <>
          <input
            type="datetime-local"
            aria-label="From"
            value={toLocalInput(earliest)}
            onChange={(e) => onChange(fromLocalInput(e.currentTarget.value), latest)}
          />
          <input
            type="datetime-local"
            aria-label="To"
            value={/^\d+$/.test(latest) ? toLocalInput(latest) : ""}
            onChange={(e) => onChange(earliest, fromLocalInput(e.currentTarget.value) || "now")}
          />
        </>
      ) : null}
    </div>
  )
}
