/** Branded identifiers. All are UUIDs except where noted. */
import { Schema } from "effect"

export const OrganizationId = Schema.UUID.pipe(Schema.brand("OrganizationId"))
export type OrganizationId = typeof OrganizationId.Type

export const UserId = Schema.UUID.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

export const ClusterId = Schema.UUID.pipe(Schema.brand("ClusterId"))
export type ClusterId = typeof ClusterId.Type

export const ApiKeyId = Schema.UUID.pipe(Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type

export const SavedSearchId = Schema.UUID.pipe(Schema.brand("SavedSearchId"))
export type SavedSearchId = typeof SavedSearchId.Type

/** Database and table names. */
export const Identifier = Schema.String.pipe(
  Schema.pattern(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/, {
    message: () => "names start with a letter and hold at most 64 letters, digits or underscores"
  })
)

export const DatabaseName = Identifier.pipe(Schema.brand("DatabaseName"))
export type DatabaseName = typeof DatabaseName.Type

export const TableName = Identifier.pipe(Schema.brand("TableName"))
export type TableName = typeof TableName.Type
