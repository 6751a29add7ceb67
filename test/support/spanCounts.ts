/**
 * Counts the spans started and ended, by name, in everything built after this layer: a
 * background fiber's work (an idling sweep, a sampler round) becomes something a test can
 * wait for, instead of sleeping and hoping it ran.
 */
import { Context, Effect, Layer, Tracer } from "effect"

export interface Counts {
  readonly started: number
  readonly ended: number
}

export class SpanCounts extends Context.Tag("test/SpanCounts")<
  SpanCounts,
  { readonly of: (name: string) => Counts }
>() {
  /** Wraps the current tracer; provide it to the layer whose spans should be counted. */
  static readonly layer: Layer.Layer<SpanCounts> = Layer.unwrapEffect(
    Effect.map(Effect.tracer, (inner) => {
      const counts = new Map<string, { started: number; ended: number }>()
      const countsOf = (name: string) => {
        const found = counts.get(name)
        if (found !== undefined) return found
        const fresh = { started: 0, ended: 0 }
        counts.set(name, fresh)
        return fresh
      }
      const tracer = Tracer.make({
        span: (name, parent, context, links, startTime, kind, options) => {
          const span = inner.span(name, parent, context, links, startTime, kind, options)
          countsOf(name).started++
          const end = span.end.bind(span)
          span.end = (endTime, exit) => {
            end(endTime, exit)
            countsOf(name).ended++
          }
          return span
        },
        context: (f, fiber) => inner.context(f, fiber)
      })
      return Layer.merge(
        Layer.setTracer(tracer),
        Layer.succeed(SpanCounts, { of: (name) => ({ ...countsOf(name) }) })
      )
    })
  )
}
