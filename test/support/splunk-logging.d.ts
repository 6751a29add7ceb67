// The parts of splunk-logging 0.11.1 (no published types) the collector tests use.
declare module "splunk-logging" {
  interface Metadata {
    readonly time?: number | string
    readonly host?: string
    readonly source?: string
    readonly sourcetype?: string
    readonly index?: string
  }
  interface Payload {
    readonly message: unknown
    readonly severity?: string
    readonly metadata?: Metadata
  }
  type Callback = (error: Error | null, response: unknown, body: unknown) => void
  class Logger {
    constructor(config: {
      readonly token: string
      readonly url?: string
      readonly maxBatchCount?: number
      readonly maxRetries?: number
    })
    error: (error: Error, context: unknown) => void
    send(payload: Payload, callback?: Callback): void
    flush(callback?: Callback): void
  }
  const splunk: { readonly Logger: typeof Logger }
  export default splunk
}
