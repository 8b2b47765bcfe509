/** Ports and raw requests for the tests that talk to a `costline serve` child process. */
import { connect, type Socket } from "node:net"

export { freePort } from "../../../test-support/network.js"

export interface HeldRequest {
  /** Sends the rest of the body; resolves with everything the server answered. */
  readonly finish: () => Promise<string>
}

/**
 * Sends a request's headers and holds its body back. Resolves once the server has answered
 * `100 Continue`, which it does only after it has taken the request in: from then on the request
 * is in flight on the server, whatever happens next.
 */
export const holdRequest = (port: number, head: ReadonlyArray<string>, body: string) =>
  new Promise<HeldRequest>((resolve, reject) => {
    let received = ""
    let socket: Socket | undefined = undefined
    const answered = new Promise<string>((done) => {
      socket = connect(port, "127.0.0.1", () => {
        socket!.write([...head, "expect: 100-continue", `content-length: ${Buffer.byteLength(body)}`, "", ""].join("\r\n"))
      })
      socket.on("error", reject)
      socket.on("data", (chunk) => {
        received += chunk.toString()
        if (received.startsWith("HTTP/1.1 100")) {
          received = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, "")
          resolve({ finish: () => (socket!.end(body), answered) })
        }
      })
      socket.on("close", () => done(received))
    })
  })

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", () => resolve(true))
  })

/** Resolves once the server no longer accepts connections (it has begun to shut down). */
export const untilRefused = async (port: number, attempts = 500) => {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await refuses(port)) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`port ${port} still accepts connections`)
}
