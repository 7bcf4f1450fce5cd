// Everything the bench started, stopped in reverse order however the run ends.

export class Cleanups {
  private readonly steps: Array<() => unknown> = [];

  /** Registers `undo`; the returned function runs it now (once) and forgets it. */
  add(undo: () => unknown): () => Promise<void> {
    let done = false;
    const step = async () => {
      if (done) return;
      done = true;
      const index = this.steps.indexOf(step);
      if (index >= 0) this.steps.splice(index, 1);
      await undo();
    };
    this.steps.push(step);
    return step;
  }

  async runAll(): Promise<void> {
    for (let step = this.steps.at(-1); step; step = this.steps.at(-1)) {
      try {
        await step();
      } catch (error) {
        console.error(`[bench] cleanup: ${(error as Error).message}`);
      }
    }
  }
}
