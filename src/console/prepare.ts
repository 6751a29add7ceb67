/**
 * `npm install`'s `prepare`: builds the console once, so the first `npm start` serves it
 * at once. A build that fails here fails nothing: the service builds it on first use.
 */
import { buildConsole } from "./ConsoleBuild.js"

const started = Date.now()
try {
  const built = await buildConsole()
  console.log(`sluice console built in ${Date.now() - started} ms (${built.names.length} files)`)
} catch (error) {
  console.warn(
    `sluice console not built now (${String(error)}); the service builds it on first use.`
  )
}
