// Prints the words the site's own search.js makes of each string, to compare with the
// index's tokenizer: a query's words must be spelt as the index spells them.
//   node tests/browser/search_tokens.mjs PUBLIC/search.js < strings.json
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const sandbox = { window: {}, URL, Intl, Map, Set, Promise, Math, Array, Object, String, JSON, RegExp };
vm.runInNewContext(readFileSync(process.argv[2], 'utf8'), sandbox);
const strings = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify(strings.map((s) => sandbox.window.paperboySearch.tokenize(s))));
