/** SPL's highlighting: commands after a pipe, keywords, strings, numbers, `field=`. */
import { StreamLanguage } from "@codemirror/language"

export const splLanguage = (commands: ReadonlySet<string>) =>
  StreamLanguage.define<{ afterPipe: boolean }>({
    name: "spl",
    startState: () => ({ afterPipe: false }),
    token(stream, state) {
      if (stream.eatSpace()) return null
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return "string"
      if (stream.eat("|")) {
        state.afterPipe = true
        return "operator"
      }
      if (stream.match(/^-?\d+(\.\d+)?(?![\w.])/)) return "number"
      const word = stream.match(/^[\w.*@-]+/) as RegExpMatchArray | null
      if (word !== null) {
        const text = word[0]
        if (state.afterPipe) {
          state.afterPipe = false
          return commands.size === 0 || commands.has(text.toLowerCase()) ? "keyword" : "invalid"
        }
        if (/^(AND|OR|NOT|BY|AS|IN|OVER|WHERE)$/i.test(text)) return "keyword"
        if (stream.peek() === "(") return "function"
        if (/^[=!<>]/.test(stream.peek() ?? "")) return "propertyName"
        return "variableName"
      }
      stream.next()
      return "operator"
    }
  })
