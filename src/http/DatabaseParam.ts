/**
 * The database an HTTP data request asks for: `?database=` or the `x-service-database`
 * header; both given and different is a 400.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { BadRequest } from "../../domain/Errors.js"

export const DATABASE_HEADER = "x-service-database"

export const requestedDatabase = (fromQuery: string | undefined) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const fromHeader = request.headers[DATABASE_HEADER]
    if (fromQuery !== undefined && fromHeader !== undefined && fromQuery !== fromHeader) {
      return Effect.fail(
        new BadRequest({
          message: `The database parameter ('${fromQuery}') and the ${DATABASE_HEADER} header ('${fromHeader}') disagree.`,
          hint: "Send one of them, or the same name in both."
        })
      )
    }
    return Effect.succeed(fromQuery ?? fromHeader)
  })
