/** What the page and the export service worker say to each other. */
import type { ContractRequest } from "../api.js"

/** The addresses the worker answers; under `/assets/`, where its script is. */
export const EXPORT_PREFIX = "/assets/export/"

export interface ExportJob {
  readonly id: string
  readonly request: ContractRequest
  readonly filename: string
  readonly type: string
  readonly json: boolean
}

/** What the worker tells the page over the job's port. */
export type ExportNews =
  | { readonly kind: "ready" }
  | { readonly kind: "bytes"; readonly bytes: number }
  | { readonly kind: "failed"; readonly status: number; readonly text: string }
  | { readonly kind: "done" }
