/** An event as the `JSONEachRow` line of the events layout (src/tables/EventsLayout.ts). */
import type { SplEvent } from "../../domain/SplEvent.js"
import { RAW_INPUT } from "../tables/Layout.js"

export const eventRow = (event: SplEvent): string =>
  JSON.stringify({
    _time: event.time,
    _raw: event.raw,
    host: event.host,
    source: event.source,
    sourcetype: event.sourcetype,
    index: event.index,
    [RAW_INPUT]: event.fields
  })
