/**
 * Two slips of `@effect/cli`'s help (0.77), mended in its printed text because the library
 * offers no hook: a usage line names only the last command (`$ show …`, which cannot be typed as
 * is), and the root's command list repeats the parent of a command nested two deep
 * (`org org settings show`). Pure, applied by the launcher to help output only.
 */
const USAGE_LINE = /^\$ (.*)$/gm
// `- a a b …` → `- a b …`: a command list entry whose first word is repeated.
const REPEATED_PARENT = /^(\s*- )(\S+) \2 (.*)$/gm

export const isHelp = (text: string): boolean => /^USAGE$/m.test(text) && /^costline \S+$/m.test(text)

export const mendHelp = (text: string, commandPath: ReadonlyArray<string>): string =>
  text
    .replace(USAGE_LINE, (_, usage: string) => `$ ${fullUsage(usage, commandPath)}`)
    .replace(REPEATED_PARENT, (_, dash: string, word: string, rest: string) =>
      // The description column stays where the other entries have it.
      `${dash}${word} ${rest.replace(/ {2,}/, (gap) => gap + " ".repeat(word.length + 1))}`)

/** The command words typed before the one the library's usage line starts with. */
const fullUsage = (usage: string, commandPath: ReadonlyArray<string>): string => {
  if (usage.startsWith("costline")) return usage
  const first = usage.split(" ")[0]!
  const at = commandPath.lastIndexOf(first)
  const parents = at < 0 ? [] : commandPath.slice(0, at)
  return ["costline", ...parents, usage].join(" ")
}

/** The command words of argv (after the script), up to the first option. */
export const commandPathOf = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const words: Array<string> = []
  for (const arg of argv.slice(2)) {
    if (arg.startsWith("-")) break
    words.push(arg)
  }
  return words
}
