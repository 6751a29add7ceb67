/** What the user typed, kept across reloads and sign-ins (this origin's localStorage). */
export const drafts = {
  get: (name: string): string | null => localStorage.getItem(`sluice.draft.${name}`),
  set: (name: string, text: string) => {
    try {
      localStorage.setItem(`sluice.draft.${name}`, text)
    } catch {
      // A full storage loses the draft, never the text on screen.
    }
  }
}

export const stored = <A>(name: string, fallback: A): A => {
  try {
    const text = localStorage.getItem(`sluice.${name}`)
    return text === null ? fallback : (JSON.parse(text) as A)
  } catch {
    return fallback
  }
}

export const store = (name: string, value: unknown) => {
  try {
    localStorage.setItem(`sluice.${name}`, JSON.stringify(value))
  } catch {
    // Nothing to do: the value stays in memory.
  }
}
