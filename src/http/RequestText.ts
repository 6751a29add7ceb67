/** Kept for importers outside the ingest work (src/logs); the reader is `RequestBody`. */
export { BODY_TOO_LARGE, textReader } from "./RequestBody.js"
