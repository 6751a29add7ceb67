/** `node buildControlPlaneTemplate.ts <directory>`: see `ControlPlaneTemplate.ts`. */
import { build } from "./ControlPlaneTemplate.js"

await build(process.argv[2]!)
