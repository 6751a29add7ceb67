import { useState } from "preact/hooks"
import { Redacted } from "effect"
import {
  AddMemberRequest,
  OrganizationNameRequest
} from "../../../../domain/api/OrganizationsApi.js"
import type { OrganizationRole } from "../../../../domain/Identity.js"
import { UserId } from "../../../../domain/Ids.js"
import { ApiFailure, call, failureOf } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import { hrefOf, navigate } from "../route.js"
import type { Scope } from "../Shell.js"
import { useApi } from "../useApi.js"

const roleOf = (value: string): OrganizationRole => (value === "admin" ? "admin" : "member")

/** Organizations (create, rename, delete) and the current one's members and invitations. */
export const Organizations = ({ scope }: { scope: Scope }) => {
  const organizations = useApi((client) => client.organizations.list(), [])
  const members = useApi(
    (client) => client.organizations.members({ path: { org: scope.organization } }),
    [scope.organization]
  )
  const invitations = useApi((client) => client.organizations.myInvitations(), [])
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [newName, setNewName] = useState("")
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<OrganizationRole>("member")
  const [password, setPassword] = useState("")
  const [note, setNote] = useState<string | null>(null)
  const act = async (action: () => Promise<unknown>) => {
    setFailure(null)
    try {
      await action()
    } catch (error) {
      setFailure(failureOf(error))
    }
    organizations.reload()
    members.reload()
    invitations.reload()
  }
  const org = { org: scope.organization }
  return (
    <section aria-label="Organizations">
      <h2>Organizations</h2>
      <ErrorNote failure={failure} />
      <ul class="plain">
        {(organizations.value?.organizations ?? []).map((o) => (
          <li key={o.name}>
            <strong>{o.name}</strong> <span class="muted small">{o.role}</span>{" "}
            <button
              type="button"
              class="link"
              onClick={() => {
                const next = prompt(`Rename ${o.name} to`, o.name)
                if (next !== null && next !== o.name)
                  void act(() =>
                    call((client) =>
                      client.organizations.rename({
                        path: { org: o.name },
                        payload: OrganizationNameRequest.make({ organization_name: next }, true)
                      })
                    )
                  )
              }}
            >
              rename
            </button>{" "}
            <button
              type="button"
              class="link danger"
              onClick={() => {
                if (confirm(`Delete organization ${o.name}?`))
                  void act(() =>
                    call((client) => client.organizations.delete({ path: { org: o.name } }))
                  )
              }}
            >
              delete
            </button>
          </li>
        ))}
      </ul>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault()
          void act(async () => {
            const created = await call((client) =>
              client.organizations.create({
                payload: OrganizationNameRequest.make({ organization_name: newName }, true)
              })
            )
            setNewName("")
            navigate(
              hrefOf(
                { organization: created.name, cluster: "default", view: "admin" },
                { database: "default" }
              )
            )
          })
        }}
      >
        <label>
          New organization
          <input value={newName} required onInput={(e) => setNewName(e.currentTarget.value)} />
        </label>
        <button type="submit">Create organization</button>
      </form>
      {(invitations.value?.invitations ?? []).length === 0 ? null : (
        <>
          <h3>Your invitations</h3>
          <ul class="plain">
            {(invitations.value?.invitations ?? []).map((invitation) => (
              <li key={invitation.id}>
                <strong>{invitation.organization.name}</strong> as {invitation.role}
                {invitation.invited_by === null ? "" : `, from ${invitation.invited_by}`}{" "}
                <button
                  type="button"
                  onClick={() =>
                    void act(() =>
                      call((client) =>
                        client.organizations.acceptInvitation({
                          path: { invitation_id: invitation.id }
                        })
                      )
                    )
                  }
                >
                  Accept
                </button>{" "}
                <button
                  type="button"
                  onClick={() =>
                    void act(() =>
                      call((client) =>
                        client.organizations.declineInvitation({
                          path: { invitation_id: invitation.id }
                        })
                      )
                    )
                  }
                >
                  Decline
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Members of {scope.organization}</h3>
      <ErrorNote failure={members.failure} />
      <table class="list" aria-label="Members">
        <tbody>
          {(members.value?.members ?? []).map((member) => (
            <tr key={member.user_id}>
              <td>{member.email}</td>
              <td>
                <select
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  onChange={(e) =>
                    void act(() =>
                      call((client) =>
                        client.organizations.updateMember({
                          path: { ...org, user_id: UserId.make(member.user_id, true) },
                          payload: { role: roleOf(e.currentTarget.value) }
                        })
                      )
                    )
                  }
                >
                  <option value="member">member</option>
                  <option value="admin">admin</option>
                </select>
              </td>
              <td>
                <button
                  type="button"
                  class="link danger"
                  onClick={() =>
                    void act(() =>
                      call((client) =>
                        client.organizations.removeMember({
                          path: { ...org, user_id: UserId.make(member.user_id, true) }
                        })
                      )
                    )
                  }
                >
                  remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault()
          void act(async () => {
            const added = await call((client) =>
              client.organizations.addMember({
                path: org,
                payload: AddMemberRequest.make(
                  {
                    email,
                    role,
                    ...(password === "" ? {} : { password: Redacted.make(password) })
                  },
                  true
                )
              })
            )
            setNote(
              added.member.status === "invited"
                ? `${added.member.email} is invited.`
                : `${added.member.email} is a member.`
            )
            setEmail("")
            setPassword("")
          })
        }}
      >
        <label>
          Member email
          <input
            type="email"
            value={email}
            required
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(roleOf(e.currentTarget.value))}>
            <option value="member">member</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <label>
          Password for a new account
          <input
            type="password"
            autocomplete="new-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Add member</button>
      </form>
      {note === null ? null : <p role="status">{note}</p>}
    </section>
  )
}
