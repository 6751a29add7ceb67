/**
 * `members` (list, add, role, remove): the organization's members, named by email (or
 * user id) on the command line and resolved to ids here. Adding someone who has an
 * account invites them; list shows pending invitations to admins.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect } from "effect"
import type { Member } from "../../../domain/api/OrganizationsApi.js"
import type { SluiceClient } from "../../../domain/Client.js"
import { withClient } from "../Api.js"
import { contract } from "../Contract.js"
import { failure } from "../CliError.js"
import { confirmed, jsonOption, printJson, printTable, when, yesOption } from "../Listing.js"
import { checked } from "../Names.js"
import { errorLine } from "../Output.js"
import type { ScopeFlags } from "../Session.js"
import { organizationOf, scopeOptions, signedIn } from "../Session.js"
import { secret } from "../Stdin.js"

const listOptions = { ...scopeOptions, json: jsonOption }
const roles = ["admin", "member"] as const
const memberArg = Args.text({ name: "member" }).pipe(
  Args.withDescription("The member's email or user id")
)

const listMembers = (flags: ScopeFlags & { readonly json: boolean }) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const org = organizationOf(session)
    const [answer, invited] = yield* withClient(session, (client) =>
      Effect.all([
        client.organizations.members({ path: { org } }),
        // Admins see pending invitations; others are refused them, and see members only.
        client.organizations
          .invitations({ path: { org } })
          .pipe(Effect.orElseSucceed(() => ({ invitations: [] })))
      ])
    )
    if (flags.json) return yield* printJson({ ...answer, ...invited })
    yield* printTable(
      ["email", "role", "user id", "status"],
      [
        ...answer.members.map((m) => [m.email, m.role, m.user_id, "member"]),
        ...invited.invitations.map((i) => [i.email, i.role, "", `invited ${when(i.invited_at)}`])
      ],
      `No members in ${org}.`
    )
  })

/** The member an email or user id names, or a failure saying who is there. */
const memberOf = (client: SluiceClient, org: string, who: string) =>
  Effect.flatMap(client.organizations.members({ path: { org } }), ({ members }) => {
    const found = members.find(
      (m: Member) => m.email.toLowerCase() === who.toLowerCase() || m.user_id === who
    )
    return found !== undefined
      ? Effect.succeed(found)
      : Effect.fail(
          failure(
            `${who} is not a member of ${org}.`,
            `\`sluice members --organization ${org}\` lists them.`
          )
        )
  })

const add = Command.make(
  "add",
  {
    ...scopeOptions,
    email: Args.text({ name: "email" }).pipe(Args.withDescription("The person's email")),
    role: Options.choice("role", roles).pipe(
      Options.withDescription("Their role"),
      Options.withDefault("member")
    ),
    password: Options.boolean("password").pipe(
      Options.withDescription(
        "For an email without an account: create it with a password (prompted, or stdin's first line)"
      )
    )
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const org = organizationOf(session)
      const password = flags.password ? yield* secret("Password for the new account") : undefined
      const payload = yield* checked(
        (yield* contract).AddMemberRequest,
        {
          email: flags.email,
          role: flags.role,
          ...(password === undefined ? {} : { password })
        },
        { email: "<email>" }
      )
      const { member } = yield* withClient(session, (client) =>
        client.organizations.addMember({ path: { org }, payload })
      )
      yield* errorLine(
        member.status === "member"
          ? `${member.email} is a member of ${org} (${member.role}).`
          : `${member.email} has an account: invited to ${org} as ${member.role}; they join when they accept.`
      )
    })
).pipe(
  Command.withDescription(
    "Add a member (admins): a new email gets an account, an existing one an invitation. Example: sluice members add ana@example.com --role admin"
  )
)

const role = Command.make(
  "role",
  {
    ...scopeOptions,
    member: memberArg,
    role: Args.choice(
      roles.map((r) => [r, r] as const),
      { name: "role" }
    ).pipe(Args.withDescription("admin or member"))
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const org = organizationOf(session)
      const { member } = yield* withClient(session, (client) =>
        Effect.flatMap(memberOf(client, org, flags.member), (found) =>
          client.organizations.updateMember({
            path: { org, user_id: found.user_id },
            payload: { role: flags.role }
          })
        )
      )
      yield* errorLine(`${member.email} is now ${member.role} of ${org}.`)
    })
).pipe(
  Command.withDescription(
    "Change a member's role (admins). Example: sluice members role ana@example.com admin"
  )
)

const remove = Command.make(
  "remove",
  { ...scopeOptions, member: memberArg, yes: yesOption },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const org = organizationOf(session)
      if (!(yield* confirmed(flags.yes, `remove ${flags.member} from ${org}`)))
        return yield* Effect.fail(failure("Not removed."))
      yield* withClient(session, (client) =>
        Effect.flatMap(memberOf(client, org, flags.member), (found) =>
          client.organizations.removeMember({ path: { org, user_id: found.user_id } })
        )
      )
      yield* errorLine(`Removed ${flags.member} from ${org}.`)
    })
).pipe(
  Command.withDescription(
    "Remove a member (admins; asks first, --yes to skip). Example: sluice members remove ana@example.com --yes"
  )
)

export const members = Command.make("members", listOptions, listMembers).pipe(
  Command.withDescription(
    "The organization's members: list (the default, with pending invitations for admins), add, role, remove. Example: sluice members add ana@example.com"
  ),
  Command.withSubcommands([
    Command.make("list", listOptions, listMembers).pipe(
      Command.withDescription(
        "List the organization's members. Example: sluice members list --organization acme --json"
      )
    ),
    add,
    role,
    remove
  ])
)
