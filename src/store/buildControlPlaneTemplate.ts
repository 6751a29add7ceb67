/** `node buildControlPlaneTemplate.ts <directory>`: see `ControlPlaneTemplate.ts`. */
import { build } from "./TemplateBuild.js"

await build(process.argv[2]!)
