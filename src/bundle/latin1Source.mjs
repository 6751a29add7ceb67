/**
 * A bundle's text with every character past U+00FF written as its `\u` escape. esbuild
 * escapes them in strings, templates and names, but keeps a comment inside an expression
 * as written, and one such character anywhere makes V8 hold the whole script's source at
 * two bytes a character: the service's 1.2 MB bundle as 2.4 MB, an engine worker's 2 MB
 * one as 4 MB, in every worker. Inside a comment the escape is only text.
 * Plain JavaScript: `src/start.mjs` uses it before anything can compile TypeScript.
 */
export const latin1Source = (text) =>
  text.replace(/[^\u0000-\u00ff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
