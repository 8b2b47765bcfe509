import { describe, expect, it } from "vitest"
import { commandPathOf, isHelp, mendHelp } from "../../src/HelpText.js"

const help = (usage: string, commands = "") =>
  ["costline", "", "costline 0.1.0", "", "USAGE", "", `$ ${usage}`, "", "DESCRIPTION", "", "x", commands].join("\n")

describe("mending @effect/cli's help text", () => {
  it("usage lines start with costline and the parent commands typed", () => {
    expect(mendHelp(help("show --org text"), ["org", "settings", "show"])).toContain("$ costline org settings show --org text")
    expect(mendHelp(help("costline"), [])).toContain("$ costline\n")
    // A positional argument after the command words does not confuse it.
    expect(mendHelp(help("import --org text <file>"), ["usage", "import", "file.csv"])).toContain("$ costline usage import --org text <file>")
  })

  it("a command listed with its parent twice is listed once, description column kept", () => {
    // As the library prints it: every description at one column.
    const listed = [
      `${"  - org settings".padEnd(50)}show or change settings`,
      `${"  - org org settings show --org text".padEnd(50)}print the settings`
    ].join("\n")
    const mended = mendHelp(help("costline", listed), []).split("\n").slice(-2)
    expect(mended[1]).toBe(`${"  - org settings show --org text".padEnd(50)}print the settings`)
    expect(mended[1]!.indexOf("print")).toBe(mended[0]!.indexOf("show or"))
  })

  it("only help output is touched", () => {
    expect(isHelp(help("serve"))).toBe(true)
    expect(isHelp("USAGE\n$ anything")).toBe(false)
    expect(commandPathOf(["node", "costline.js", "org", "settings", "show", "--help", "x"])).toEqual(["org", "settings", "show"])
  })
})
