import { useState } from "preact/hooks"
import { UpdateClusterRequest } from "../../../../domain/api/ClusterModels.js"
import type { Cluster } from "../../../../domain/api/ClusterModels.js"

/** A cluster's name and idle timeout, sent as one update of what changed. */
export const EditCluster = ({
  cluster,
  onSave,
  onCancel
}: {
  cluster: Cluster
  onSave: (payload: UpdateClusterRequest) => void
  onCancel: () => void
}) => {
  const [name, setName] = useState(cluster.name)
  const [idle, setIdle] = useState(String(cluster.idle_timeout_minutes))
  const save = (event: Event) => {
    event.preventDefault()
    onSave(
      UpdateClusterRequest.make(
        {
          ...(name === cluster.name ? {} : { name }),
          ...(Number(idle) === cluster.idle_timeout_minutes
            ? {}
            : { idle_timeout_minutes: Number(idle) })
        },
        true
      )
    )
  }
  return (
    <form class="form" onSubmit={save} aria-label={`Edit cluster ${cluster.name}`}>
      <label>
        Name
        <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Idle timeout (minutes, 0 = never)
        <input
          type="number"
          min={0}
          required
          value={idle}
          onInput={(e) => setIdle(e.currentTarget.value)}
        />
      </label>
      <button type="submit" class="primary">
        Save
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  )
}
