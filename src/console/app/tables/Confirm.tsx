import { useEffect, useRef, useState } from "preact/hooks"

/** A modal asking to type a name before something is deleted. */
export const Confirm = ({
  title,
  text,
  expected,
  action,
  onConfirm,
  onCancel
}: {
  title: string
  text: string
  expected: string
  action: string
  onConfirm: () => void
  onCancel: () => void
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [typed, setTyped] = useState("")
  useEffect(() => {
    dialog.current?.showModal()
  }, [])
  return (
    <dialog ref={dialog} aria-label={title} onCancel={onCancel} onClose={onCancel}>
      <form
        method="dialog"
        class="confirm"
        onSubmit={(e) => {
          e.preventDefault()
          if (typed === expected) onConfirm()
        }}
      >
        <h2>{title}</h2>
        <p>{text}</p>
        <label>
          Name
          <input value={typed} onInput={(e) => setTyped(e.currentTarget.value)} autoFocus />
        </label>
        <div class="toolbar">
          <button type="submit" class="danger" disabled={typed !== expected}>
            {action}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  )
}
