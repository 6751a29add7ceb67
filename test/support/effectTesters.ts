/**
 * Setup of every test file: `it.effect`, `it.scoped` and the other Effect testers as
 * `@effect/vitest` defines them. Its `layer(...)` assigns testers that run on that layer's
 * runtime onto vitest's one `it` object, so a file sharing its process with a `layer`
 * file ran its own top-level `it.effect` on that file's (closed) runtime: without the test
 * services where the layer excluded them, a plain clock where the `TestClock` should be
 * (`setTime is not a function`).
 */
import { it, makeMethods } from "@effect/vitest"

// `it` is vitest's own object, which `layer(...)` assigned to: the defaults go back on it.
makeMethods(it)
