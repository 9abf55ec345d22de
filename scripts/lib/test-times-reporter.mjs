// A node:test reporter for scripts/test.mjs: one line per test file, `<file>\t<ms>`, from the
// suite each file runs in (the outermost level), so the next run can start the longest files first.
export default async function* fileTimes(source) {
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0)
      yield `${event.data.name}\t${Math.round(event.data.details.duration_ms)}\n`;
  }
}
