import { useEffect, useState } from "preact/hooks"
import { CreateClusterRequest, UpdateClusterRequest } from "../../../../domain/api/ClusterModels.js"
import type { Cluster } from "../../../../domain/api/ClusterModels.js"
import { ClusterId } from "../../../../domain/Ids.js"
import { ApiFailure, call } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import type { Scope } from "../Shell.js"
import { useApi } from "../useApi.js"
import { failureOf } from "./failure.js"

/**
 * Clusters with their status, followed while one is not ready; pause, resume and delete
 * offered only as `can_pause`/`can_resume` say (never read from the phase).
 */
export const Clusters = ({ scope }: { scope: Scope }) => {
  const urlParams = { organization: scope.organization }
  const clusters = useApi((client) => client.clusters.list({ urlParams }), [scope.organization])
  const sizes = useApi((client) => client.clusterSizes.sizes(), [])
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [name, setName] = useState("")
  const [size, setSize] = useState(0)
  const [replicas, setReplicas] = useState(1)
  const [idle, setIdle] = useState("")
  const settling = (clusters.value?.clusters ?? []).some(
    (c) => !c.status.ready && (c.can_pause || !c.can_resume)
  )
  useEffect(() => {
    if (!settling) return
    const timer = setTimeout(clusters.reload, 1000)
    return () => clearTimeout(timer)
  }, [settling, clusters.value])
  const act = async (action: () => Promise<unknown>) => {
    setFailure(null)
    try {
      await action()
    } catch (error) {
      setFailure(failureOf(error))
    }
    clusters.reload()
  }
  const id = (cluster: Cluster) => ({ cluster_id: ClusterId.make(cluster.id, true) })
  const create = (event: Event) => {
    event.preventDefault()
    const chosen = sizes.value?.sizes[size]
    if (chosen === undefined) return
    void act(() =>
      call((client) =>
        client.clusters.create({
          urlParams,
          payload: CreateClusterRequest.make(
            {
              name: name,
              replicas,
              size: { cpu_cores: chosen.cpu_cores, memory_gib: chosen.memory_gib },
              ...(idle === "" ? {} : { idle_timeout_minutes: Number(idle) })
            },
            true
          )
        })
      )
    )
  }
  return (
    <section aria-label="Clusters">
      <h2>Clusters</h2>
      <ErrorNote failure={failure ?? clusters.failure} />
      <table class="list" aria-label="Cluster list">
        <thead>
          <tr>
            <th>Name</th>
            <th>Status</th>
            <th>Size</th>
            <th>Idle timeout</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(clusters.value?.clusters ?? []).map((cluster) => (
            <tr key={cluster.id} aria-label={`Cluster ${cluster.name}`}>
              <td>{cluster.name}</td>
              <td>
                <span class={cluster.status.ready ? "ok" : "muted"}>{cluster.status.phase}</span>
                {cluster.status.message === null ? null : (
                  <div class="small muted">{cluster.status.message}</div>
                )}
              </td>
              <td class="small">
                {cluster.resources === null
                  ? "—"
                  : `${cluster.resources.replicas} × ${cluster.resources.cpu_cores_per_replica} CPU, ${+(cluster.resources.memory_bytes_per_replica / 2 ** 30).toFixed(1)} GiB`}
              </td>
              <td>
                <input
                  type="number"
                  aria-label={`Idle timeout of ${cluster.name} in minutes`}
                  value={cluster.idle_timeout_minutes}
                  onChange={(e) =>
                    void act(() =>
                      call((client) =>
                        client.clusters.update({
                          urlParams,
                          path: id(cluster),
                          payload: UpdateClusterRequest.make(
                            { idle_timeout_minutes: Number(e.currentTarget.value) },
                            true
                          )
                        })
                      )
                    )
                  }
                />
              </td>
              <td>
                <div class="actions">
                  <button
                    type="button"
                    disabled={!cluster.can_pause}
                    onClick={() =>
                      void act(() =>
                        call((client) => client.clusters.stop({ urlParams, path: id(cluster) }))
                      )
                    }
                  >
                    Pause
                  </button>
                  <button
                    type="button"
                    disabled={!cluster.can_resume}
                    onClick={() =>
                      void act(() =>
                        call((client) => client.clusters.resume({ urlParams, path: id(cluster) }))
                      )
                    }
                  >
                    Resume
                  </button>
                  <button
                    type="button"
                    onClick={() => {
                      const next = prompt(`Rename ${cluster.name} to`, cluster.name)
                      if (next !== null && next !== cluster.name)
                        void act(() =>
                          call((client) =>
                            client.clusters.update({
                              urlParams,
                              path: id(cluster),
                              payload: UpdateClusterRequest.make({ name: next }, true)
                            })
                          )
                        )
                    }}
                  >
                    Rename
                  </button>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => {
                      if (confirm(`Delete cluster ${cluster.name} and all its data?`))
                        void act(() =>
                          call((client) => client.clusters.delete({ urlParams, path: id(cluster) }))
                        )
                    }}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="form" onSubmit={create} aria-label="New cluster">
        <label>
          New cluster
          <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Size
          <select value={size} onChange={(e) => setSize(Number(e.currentTarget.value))}>
            {(sizes.value?.sizes ?? []).map((option, i) => (
              <option key={option.size} value={i}>
                {option.size}
              </option>
            ))}
          </select>
        </label>
        <label>
          Replicas
          <input
            type="number"
            min={sizes.value?.min_number_of_replicas ?? 1}
            max={sizes.value?.max_number_of_replicas ?? 1}
            value={replicas}
            onInput={(e) => setReplicas(Number(e.currentTarget.value))}
          />
        </label>
        <label>
          Idle timeout (min)
          <input
            type="number"
            placeholder="default"
            value={idle}
            onInput={(e) => setIdle(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Create cluster</button>
      </form>
    </section>
  )
}
