import { useEffect, useState } from "preact/hooks"
import {
  Autoscaling,
  ByoS3,
  ClusterSize,
  CreateClusterRequest,
  S3Location
} from "../../../../domain/api/ClusterModels.js"
import type { SizeCatalog, SizeOption } from "../../../../domain/api/ClusterModels.js"
import type { StorageVerification } from "../../../../domain/StorageVerifier.js"
import { ApiFailure, call, failureOf } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"

const sizeOf = (option: SizeOption) =>
  ClusterSize.make({ cpu_cores: option.cpu_cores, memory_gib: option.memory_gib })

const indexOf = (catalog: SizeCatalog, option: SizeOption) =>
  Math.max(
    0,
    catalog.sizes.findIndex(
      (s) => s.cpu_cores === option.cpu_cores && s.memory_gib === option.memory_gib
    )
  )

const SizeSelect = ({
  label,
  catalog,
  value,
  onChange
}: {
  label: string
  catalog: SizeCatalog
  value: number
  onChange: (index: number) => void
}) => (
  <label>
    {label}
    <select value={value} onChange={(e) => onChange(Number(e.currentTarget.value))}>
      {catalog.sizes.map((option, i) => (
        <option key={option.size} value={i}>
          {option.size}
        </option>
      ))}
    </select>
  </label>
)

const Field = ({
  label,
  value,
  onInput,
  placeholder
}: {
  label: string
  value: string
  onInput: (value: string) => void
  placeholder?: string
}) => (
  <label>
    {label}
    <input
      value={value}
      required
      placeholder={placeholder}
      onInput={(e) => onInput(e.currentTarget.value)}
    />
  </label>
)

const EMPTY_STORAGE = { dataBucket: "", dataPath: "", backupsBucket: "", backupsPath: "", role: "" }

/**
 * A cluster from the size catalog: replicas, autoscaling bounds, idle timeout, and
 * customer-owned storage (`byo_s3`) that can be verified before it is used.
 */
export const NewCluster = ({
  organization,
  catalog,
  onCreated
}: {
  organization: string
  catalog: SizeCatalog
  onCreated: () => void
}) => {
  const [name, setName] = useState("")
  const [size, setSize] = useState(0)
  const [replicas, setReplicas] = useState(catalog.min_number_of_replicas)
  const [min, setMin] = useState(() => indexOf(catalog, catalog.default_min_size))
  const [max, setMax] = useState(() => indexOf(catalog, catalog.default_max_size))
  const [idle, setIdle] = useState("")
  const [ownStorage, setOwnStorage] = useState(false)
  const [storage, setStorage] = useState(EMPTY_STORAGE)
  const [verification, setVerification] = useState<StorageVerification | null>(null)
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => setVerification(null), [storage, ownStorage])
  const edit = (key: keyof typeof EMPTY_STORAGE) => (value: string) =>
    setStorage((previous) => ({ ...previous, [key]: value }))
  const byoS3 = () =>
    ByoS3.make({
      data: S3Location.make({ bucket: storage.dataBucket, path: storage.dataPath }),
      backups: S3Location.make({ bucket: storage.backupsBucket, path: storage.backupsPath }),
      role_arn: storage.role
    })
  const run = async (action: () => Promise<void>) => {
    setBusy(true)
    setFailure(null)
    try {
      await action()
    } catch (error) {
      setFailure(failureOf(error))
    } finally {
      setBusy(false)
    }
  }
  const verify = () =>
    run(async () => {
      setVerification(
        await call((client) =>
          client.clusters.verifyS3Access({
            urlParams: { organization },
            payload: { byo_s3: byoS3() }
          })
        )
      )
    })
  const create = (event: Event) => {
    event.preventDefault()
    const chosen = catalog.sizes[size]
    const lower = catalog.sizes[min]
    const upper = catalog.sizes[max]
    if (chosen === undefined || lower === undefined || upper === undefined) return
    void run(async () => {
      await call((client) =>
        client.clusters.create({
          urlParams: { organization },
          payload: CreateClusterRequest.make(
            {
              name,
              replicas,
              size: sizeOf(chosen),
              autoscaling: Autoscaling.make({ min_size: sizeOf(lower), max_size: sizeOf(upper) }),
              ...(idle === "" ? {} : { idle_timeout_minutes: Number(idle) }),
              ...(ownStorage ? { byo_s3: byoS3() } : {})
            },
            true
          )
        })
      )
      setName("")
      onCreated()
    })
  }
  return (
    <form class="new-cluster" onSubmit={create} aria-label="New cluster">
      <h3>New cluster</h3>
      <div class="form">
        <Field label="Name" value={name} onInput={setName} />
        <SizeSelect label="Size" catalog={catalog} value={size} onChange={setSize} />
        <label>
          Replicas
          <input
            type="number"
            min={catalog.min_number_of_replicas}
            max={catalog.max_number_of_replicas}
            value={replicas}
            onInput={(e) => setReplicas(Number(e.currentTarget.value))}
          />
        </label>
        <SizeSelect label="Autoscaling from" catalog={catalog} value={min} onChange={setMin} />
        <SizeSelect label="Autoscaling up to" catalog={catalog} value={max} onChange={setMax} />
        <label>
          Idle timeout (minutes, 0 = never)
          <input
            type="number"
            min={0}
            placeholder="default"
            value={idle}
            onInput={(e) => setIdle(e.currentTarget.value)}
          />
        </label>
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={ownStorage}
          onChange={(e) => setOwnStorage(e.currentTarget.checked)}
        />
        Own S3 storage (byo_s3)
      </label>
      {ownStorage ? (
        <fieldset class="form storage">
          <legend>Customer-owned storage</legend>
          <Field label="Data bucket" value={storage.dataBucket} onInput={edit("dataBucket")} />
          <Field label="Data path" value={storage.dataPath} onInput={edit("dataPath")} />
          <Field
            label="Backups bucket"
            value={storage.backupsBucket}
            onInput={edit("backupsBucket")}
          />
          <Field label="Backups path" value={storage.backupsPath} onInput={edit("backupsPath")} />
          <Field
            label="Role ARN"
            value={storage.role}
            placeholder="arn:aws:iam::123456789012:role/sluice"
            onInput={edit("role")}
          />
          <button type="button" disabled={busy} onClick={() => void verify()}>
            Verify storage
          </button>
        </fieldset>
      ) : null}
      {verification === null ? null : (
        <p role="status" class={verification.verified ? "ok" : "error"}>
          {verification.verified ? "Storage verified." : verification.message}{" "}
          <span class="muted">
            The role's trust policy names the external id {verification.external_id}.
          </span>
        </p>
      )}
      <ErrorNote failure={failure} />
      <button type="submit" class="primary" disabled={busy}>
        Create cluster
      </button>
    </form>
  )
}
