/**
 * `npm install`'s `postinstall` (after `src/start.mjs --prepare` bundled the service):
 * builds what the first start would otherwise build, the engine worker's bundle, the
 * control plane's template and the native page release of idle engine workers. A step
 * that fails here fails nothing: the service builds it on first use (the page release
 * only where there is a C compiler; without one, idle workers keep their pages).
 */
import { Effect } from "effect"
import * as ControlPlaneTemplate from "./store/ControlPlaneTemplate.js"
import * as TemplateBuild from "./store/TemplateBuild.js"
import * as ReleasePages from "./runtime/ReleasePages.js"
import { workerCommand } from "./provisioner/WorkerCommand.js"

const started = Date.now()
await Effect.runPromise(workerCommand)
try {
  await TemplateBuild.build(ControlPlaneTemplate.templateDirectory())
  console.log(`sluice engine worker and control plane prepared in ${Date.now() - started} ms`)
} catch (error) {
  console.warn(`sluice control plane template not built now (${String(error)})`)
}
const keepPages = (reason: string) =>
  console.warn(`sluice: idle engine workers will keep their library's pages: ${reason}`)
await Effect.runPromise(
  Effect.match(ReleasePages.build, {
    onFailure: (error) => keepPages(error.reason),
    onSuccess: () => {}
  }).pipe(Effect.catchAllDefect(() => Effect.sync(() => keepPages("the build failed"))))
)
