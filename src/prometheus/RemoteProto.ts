/**
 * The field keys of remote write 1.0's `WriteRequest` (remote.proto and types.proto):
 * `(field number << 3) | wire type`, as they appear on the wire. Shared by the reader
 * and the writer of its bytes.
 */
export const WRITE_TIMESERIES = 10
export const WRITE_METADATA = 26
export const SERIES_LABEL = 10
export const SERIES_SAMPLE = 18
export const SERIES_EXEMPLAR = 26
export const SERIES_HISTOGRAM = 34
export const LABEL_NAME = 10
export const LABEL_VALUE = 18
export const SAMPLE_VALUE = 9
export const SAMPLE_TIMESTAMP = 16
export const METADATA_TYPE = 8
export const METADATA_FAMILY = 18
export const METADATA_HELP = 34
export const METADATA_UNIT = 42
