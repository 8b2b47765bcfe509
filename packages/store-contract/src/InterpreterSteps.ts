/**
 * Interpreter steps: what an effect costs the Effect runtime, counted exactly by a supervisor
 * that sees every step of the fibers it supervises. Unlike time, it does not depend on the
 * machine's load, so tests can hold the hot paths to a budget.
 */
import { Effect, RuntimeFlags, RuntimeFlagsPatch, Supervisor } from "effect"

/** Counts the steps of every fiber it supervises (with op supervision on). */
export class StepCounter extends Supervisor.AbstractSupervisor<number> {
  count = 0
  get value() {
    return Effect.sync(() => this.count)
  }
  override onEffect() {
    this.count++
  }
}

/** The steps `effect` takes on its own fiber. */
export const stepsOf = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<number, E, R> =>
  Effect.suspend(() => {
    const steps = new StepCounter()
    return effect.pipe(
      Effect.supervised(steps),
      Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision)),
      Effect.map(() => steps.count)
    )
  })
