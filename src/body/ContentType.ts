/**
 * The one reading of a `content-type` header: its media type, lower-cased, without
 * parameters (`application/json; charset=utf-8` is `application/json`); `""` when absent.
 */
export const mediaType = (header: string | undefined): string =>
  header === undefined ? "" : header.split(";")[0]!.trim().toLowerCase()
