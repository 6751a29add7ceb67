import { useRef, useState } from "preact/hooks"
import type { TimelineBucket } from "../../../../domain/api/SplApi.js"
import { countOf, formatCount } from "../sql/resultStream.js"

// The events' own times are the service's (UTC), so the range under the bars is too.
const utcOf = (time: string) =>
  time
    .replace("T", " ")
    .replace(/(:\d\d)\.000Z?$/, "$1")
    .replace(/Z$/, "")

const WIDTH = 1000
const HEIGHT = 90

/**
 * The filtered events per bucket as bars; dragging across them picks a narrower window
 * (`onZoom` with epoch seconds, the end one bucket past the last one chosen).
 */
export const Timeline = ({
  buckets,
  onZoom
}: {
  buckets: ReadonlyArray<TimelineBucket>
  onZoom: (earliest: number, latest: number) => void
}) => {
  const svg = useRef<SVGSVGElement>(null)
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null)
  if (buckets.length === 0) return null
  const max = Math.max(1, ...buckets.map((b) => b.count))
  const width = WIDTH / buckets.length
  const times = buckets.map((b) => Date.parse(b.time.replace(" ", "T")) / 1000)
  const step = times.length > 1 ? times[1]! - times[0]! : 60
  const indexAt = (event: PointerEvent) => {
    const box = svg.current!.getBoundingClientRect()
    const x = ((event.clientX - box.left) / box.width) * WIDTH
    return Math.max(0, Math.min(buckets.length - 1, Math.floor(x / width)))
  }
  const low = drag === null ? -1 : Math.min(drag.from, drag.to)
  const high = drag === null ? -1 : Math.max(drag.from, drag.to)
  const total = buckets.reduce((sum, b) => sum + b.count, 0)
  return (
    <figure class="timeline">
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Timeline: ${countOf(total, "event")} in ${countOf(buckets.length, "bucket")}; drag to narrow the window`}
        onPointerDown={(e) => {
          svg.current?.setPointerCapture(e.pointerId)
          const i = indexAt(e)
          setDrag({ from: i, to: i })
        }}
        onPointerMove={(e) => {
          if (drag !== null) setDrag({ ...drag, to: indexAt(e) })
        }}
        onPointerUp={() => {
          if (drag === null) return
          setDrag(null)
          if (low !== high) onZoom(times[low]!, times[high]! + step)
        }}
      >
        {buckets.map((bucket, i) => {
          const h = (bucket.count / max) * (HEIGHT - 4)
          return (
            <rect
              key={i}
              class={i >= low && i <= high ? "bar chosen" : "bar"}
              x={i * width + width * 0.1}
              y={HEIGHT - h}
              width={width * 0.8}
              height={h}
            >
              <title>{`${bucket.time}: ${formatCount(bucket.count)}`}</title>
            </rect>
          )
        })}
      </svg>
      <figcaption class="muted small">
        {utcOf(buckets[0]!.time)} — {utcOf(buckets[buckets.length - 1]!.time)} UTC
      </figcaption>
    </figure>
  )
}
