// Writes engine/testdata/minimatch.json, the permission gate's table test:
// each case's result under minimatch 5.1.3 (the last JavaScript release;
// default options: dot false, case-sensitive) on the raw value, and the
// gate's expectation: minimatch on the value cleaned as the gate cleans it,
// false when cleaning climbs above the start.
//
//   NODE_PATH=/path/to/node_modules node scripts/minimatch-table.js > engine/testdata/minimatch.json
//
const mm = require('minimatch')
const path = require('path').posix
const cases = [
  ['src/**', 'src/a.go'], ['src/**', 'src/a/b/c.go'], ['src/**', 'src'], ['src/**', 'src/'],
  ['src/**', 'src/.env'], ['src/**', 'src/.git/config'], ['src/**', 'src/a/.hidden/x'],
  ['src/**', 'src/../secrets/.env'], ['src/**', 'src/./a.go'], ['src/**', './src/a.go'],
  ['src/**', 'src//a.go'], ['src/**', '../etc/passwd'], ['src/**', 'src/a/../../etc/passwd'],
  ['src/**', '/src/a.go'], ['src/**', 'SRC/a.go'], ['SRC/**', 'src/a.go'],
  ['**', '../etc/passwd'], ['**', 'a/b'], ['**', '.env'], ['**', 'a/.env'], ['**/.env', 'a/.env'],
  ['**/.env', '.env'], ['**/.env', '.git/.env'], ['.*', '.env'], ['*', '.env'], ['*', 'a'],
  ['*', 'a/'], ['*', 'a/b'], ['src/*', 'src/a.go'], ['src/*', 'src/a/b.go'], ['src/*', 'src/'],
  ['src/*.go', 'src/a.go'], ['src/*.go', 'src/.go'], ['src/?.go', 'src/a.go'], ['src/?.go', 'src/ab.go'],
  ['src/[ab].go', 'src/b.go'], ['src/[!ab].go', 'src/c.go'], ['src/[!ab].go', 'src/a.go'],
  ['src/{a,b}/*.go', 'src/b/x.go'], ['src/{a,b}/*.go', 'src/c/x.go'], ['src/**/test/*.go', 'src/test/x.go'],
  ['src/**/test/*.go', 'src/a/b/test/x.go'], ['src/**/test/*.go', 'src/.a/test/x.go'],
  ['/tmp/**', '/tmp/x'], ['/tmp/**', '/tmp/../etc/passwd'], ['/tmp/**', 'tmp/x'],
  ['docs/', 'docs/'], ['docs/', 'docs'], ['docs', 'docs/'], ['a/**/b', 'a/b'], ['a/**/b', 'a/x/y/b'],
  ['*.md', 'README.md'], ['*.md', 'docs/README.md'], ['**/*.md', 'docs/README.md'], ['**/*.md', 'README.md'],
  ['src/**', 'src/a b/c.go'], ['src/**', 'src/%2e%2e/x'], ['src/**', 'src/..'], ['src/**', 'src/...'],
]
function clean(p) {
  if (p === '') return p
  let c = path.normalize(p)
  if (p.endsWith('/') && !c.endsWith('/')) c += '/'
  return c
}
function escapes(c) { return c === '..' || c.startsWith('../') || c === '../' }
const out = cases.map(([pattern, value]) => {
  const c = clean(value)
  return { pattern, value, minimatch: mm(value, pattern), want: !escapes(c) && mm(c, pattern) }
})
console.log(JSON.stringify(out, null, 1))
