import { expect } from "vitest"

/** What the page shows, waited for as long as a busy machine may need (vitest waits 1 s). */
export const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000 })
