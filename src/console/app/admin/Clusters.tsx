import { useEffect, useState } from "preact/hooks"
import type { Cluster } from "../../../../domain/api/ClusterModels.js"
import { ClusterId } from "../../../../domain/Ids.js"
import { ApiFailure, call, failureOf } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import type { Scope } from "../Shell.js"
import { useApi } from "../useApi.js"
import { ClusterMetrics } from "./ClusterMetrics.js"
import { EditCluster } from "./EditCluster.js"
import { NewCluster } from "./NewCluster.js"

const gib = (bytes: number) => +(bytes / 2 ** 30).toFixed(1)

/**
 * Clusters with their status, followed while one is not ready; pause, resume and delete
 * offered only as `can_pause`/`can_resume` say (never read from the phase); a cluster's
 * name and idle timeout edited, a new one created, one's metrics charted.
 */
export const Clusters = ({ scope }: { scope: Scope }) => {
  const urlParams = { organization: scope.organization }
  const clusters = useApi((client) => client.clusters.list({ urlParams }), [scope.organization])
  const sizes = useApi((client) => client.clusterSizes.sizes(), [])
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [editing, setEditing] = useState<Cluster | null>(null)
  const [shown, setShown] = useState(scope.cluster)
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
                  : `${cluster.resources.replicas} × ${cluster.resources.cpu_cores_per_replica} CPU, ${gib(cluster.resources.memory_bytes_per_replica)} GiB`}
                {cluster.resources === null ? null : (
                  <div class="muted">
                    autoscaling {cluster.resources.minimum_size.cpu_cores}–
                    {cluster.resources.maximum_size.cpu_cores} CPU
                  </div>
                )}
                {cluster.s3_storage === null ? null : (
                  <div class="muted">storage s3://{cluster.s3_storage.data.bucket}</div>
                )}
              </td>
              <td>
                {cluster.idle_timeout_minutes === 0
                  ? "never"
                  : `${cluster.idle_timeout_minutes} min`}
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
                  <button type="button" onClick={() => setEditing(cluster)}>
                    Edit
                  </button>
                  <button type="button" onClick={() => setShown(cluster.name)}>
                    Metrics
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
      {editing === null ? null : (
        <EditCluster
          key={editing.id}
          cluster={editing}
          onSave={(payload) =>
            act(async () => {
              await call((client) =>
                client.clusters.update({ urlParams, path: id(editing), payload })
              )
              setEditing(null)
            })
          }
          onCancel={() => setEditing(null)}
        />
      )}
      {sizes.value === null ? null : (
        <NewCluster
          organization={scope.organization}
          catalog={sizes.value}
          onCreated={clusters.reload}
        />
      )}
      <ClusterMetrics organization={scope.organization} cluster={shown} />
    </section>
  )
}
