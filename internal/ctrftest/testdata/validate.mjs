// Validates a CTRF document with the format's reference implementation
// (npm ctrf@0.3.0): node validate.mjs NODE_MODULES_DIR FILE.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [dir, file] = process.argv.slice(2);
const require = createRequire(path.join(dir, 'noop.js'));
const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'ctrf', 'package.json'), 'utf8'));
if (pkg.version !== '0.3.0') {
  console.error(`ctrf ${pkg.version} in ${dir}, not 0.3.0`);
  process.exit(2);
}
const { validate } = require('ctrf');
const result = validate(JSON.parse(fs.readFileSync(file, 'utf8')));
console.log(JSON.stringify(result, null, 2));
process.exit(result.valid ? 0 : 1);
