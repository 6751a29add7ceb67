/**
 * `npm install`'s `postinstall` (after `src/start.mjs --prepare` bundled the service):
 * builds what the first start would otherwise build, the engine worker's bundle and the
 * control plane's template. A step that fails here fails nothing: the service builds it
 * on first use.
 */
import { Effect } from "effect"
import * as ControlPlaneTemplate from "./store/ControlPlaneTemplate.js"
import * as TemplateBuild from "./store/TemplateBuild.js"
import { workerCommand } from "./provisioner/WorkerCommand.js"

const started = Date.now()
await Effect.runPromise(workerCommand)
try {
  await TemplateBuild.build(ControlPlaneTemplate.templateDirectory())
  console.log(`sluice engine worker and control plane prepared in ${Date.now() - started} ms`)
} catch (error) {
  console.warn(`sluice control plane template not built now (${String(error)})`)
}
