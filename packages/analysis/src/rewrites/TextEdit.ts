/** Edits of the original query text, so a rewrite keeps everything it does not change. */

export interface TextEdit {
  readonly start: number
  readonly end: number
  readonly text: string
}

export const insertAt = (offset: number, text: string): TextEdit => ({ start: offset, end: offset, text })

/** Applies non-overlapping edits; offsets refer to the original text. */
export const applyEdits = (text: string, edits: ReadonlyArray<TextEdit>): string =>
  [...edits]
    .sort((a, b) => b.start - a.start)
    .reduce((result, edit) => result.slice(0, edit.start) + edit.text + result.slice(edit.end), text)
