/** What `Contract.ts` loads on first use. */
export {
  ClusterName,
  CreateClusterRequest,
  UpdateClusterRequest
} from "../../domain/api/ClusterModels.js"
export { CreateKeyRequest } from "../../domain/api/KeysApi.js"
export { StatusCodes } from "../../domain/api/LogsApi.js"
export { AddMemberRequest, OrganizationName } from "../../domain/api/OrganizationsApi.js"
export { CreateSavedSearchRequest } from "../../domain/api/SavedSearchesApi.js"
export { DatabaseName, SavedSearchId, TableName } from "../../domain/Ids.js"
