/**
 * esbuild for the builds a running process makes (a bundle or the console whose inputs
 * changed), its service process stopped once the last build in progress ends: left
 * running, it held a large RSS beside the service for as long as the service ran.
 */
type Esbuild = typeof import("esbuild")

let building = 0

export const withEsbuild = async <A>(build: (esbuild: Esbuild) => Promise<A>): Promise<A> => {
  const esbuild = await import("esbuild")
  building += 1
  try {
    return await build(esbuild)
  } finally {
    building -= 1
    // A later build starts esbuild's process again.
    if (building === 0) await esbuild.stop()
  }
}
