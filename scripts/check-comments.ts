/**
 * `npm run lint:comments`: comments tell the truth about the repository.
 * - Every repository path a comment names (`docs/design.md`, `server/app.ts`, `test/support/server.ts`,
 *   `spec/openapi.yaml`, …) exists, or is an output git ignores (`sdk-ts/dist`). Paths under `server/` may be
 *   written from it (`services/versioned.ts`), and any path may be relative to the commenting file's folder. A glob
 *   (`test/contract/*.test.ts`) needs its folder to exist. A bare Markdown name (`README.md`) exists at the root or
 *   beside the file; nothing outside the repository (the shared folder beside it) is cited: a reader cannot see it.
 * - No comment carries history (an issue, round or wave with its number): what changed and why belongs in the commit body;
 *   a comment states what the code does and cites docs/design.md. Upstream issues are cited as `#1177`.
 *
 * Reads the comments of hand-written .ts/.mts/.cts/.js/.mjs/.cjs files (through the TypeScript parser, so strings,
 * templates and regular expressions are never taken for comments), and the `#` comments of .sh/.py/.yaml/.yml files
 * and of scripts without an extension that start with a shell shebang. Prints `file:line: message` for each offence
 * and exits 1, unless the file is a known offender listed in scripts/lint-baseline.txt.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { handWrittenFiles, ROOT, settle } from './lint-files.ts';

/** One comment: its text and the 1-based line it starts on. */
interface Comment {
  line: number;
  text: string;
}

/** The top-level folders of the repository a comment may name. */
const ROOTS = [
  'docs',
  'server',
  'test',
  'spec',
  'scripts',
  'bench',
  'eval',
  'sdk-ts',
  'sdk-python',
  'generated',
  'examples',
  'datasets',
  'patches',
];
/** Folders a comment inside `server/` names without the `server/` prefix. */
const SERVER_FOLDERS = ['http', 'services', 'repositories', 'db', 'workers', 'jobs', 'import'];

/** A path that starts at one of ROOTS or SERVER_FOLDERS, not inside a URL or a longer path. */
const PATH = new RegExp(
  `(?<![\\w./@-])((?:${[...ROOTS, ...SERVER_FOLDERS].map((r) => r.replace('-', '\\-')).join('|')})/[\\w.*{},/-]*)`,
  'g',
);

/** A Markdown file named without a folder. */
const BARE_MARKDOWN = /(?<![\w./-])([\w-]+\.md)\b/g;

/** A path that leaves the repository. */
const OUTSIDE = /(?<![\w.])\.\.\/shared\b/;

/** History references that belong in commit bodies. */
const HISTORY = /\b(?:issues? \d+|round \d|wave \d)/i;

const SCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);
const HASH_EXTENSIONS = new Set(['.sh', '.py', '.yaml', '.yml']);

/** The comments of a TypeScript or JavaScript file, each once, in order. */
function scriptComments(file: string, text: string): Comment[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, Comment>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      const { line } = source.getLineAndCharacterOfPosition(range.pos);
      seen.set(range.pos, { line: line + 1, text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()].sort((a, b) => a.line - b.line);
}

/**
 * The `#` comments of a shell, Python or YAML file: from a `#` that starts the line or follows white space, outside
 * single or double quotes, to the end of the line. A shebang is not a comment.
 */
function hashComments(text: string): Comment[] {
  const out: Comment[] = [];
  text.split('\n').forEach((line, index) => {
    if (index === 0 && line.startsWith('#!')) return;
    let quote: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) {
        out.push({ line: index + 1, text: line.slice(i) });
        return;
      }
    }
  });
  return out;
}

/** The comments of a file, or null for a file whose kind has none this check reads. */
function commentsOf(file: string, text: string): Comment[] | null {
  const ext = path.extname(file);
  if (SCRIPT_EXTENSIONS.has(ext) && !file.endsWith('.d.ts')) return scriptComments(file, text);
  if (HASH_EXTENSIONS.has(ext)) return hashComments(text);
  if (ext === '' && /^#!.*\b(ba|z)?sh\b/.test(text)) return hashComments(text);
  return null;
}

const ignored = new Map<string, boolean>();

/** Whether a path exists, or git ignores it (a build output such as sdk-ts/dist or test/artifacts). */
function exists(relative: string): boolean {
  if (fs.existsSync(path.join(ROOT, relative))) return true;
  let known = ignored.get(relative);
  if (known === undefined) {
    // A trailing `/` lets a folder pattern (`dist/`) match a folder that is not there yet.
    known = [relative, `${relative}/`].some(
      (candidate) =>
        spawnSync('git', ['check-ignore', '-q', '--no-index', candidate], { cwd: ROOT }).status === 0,
    );
    ignored.set(relative, known);
  }
  return known;
}

/** Whether a path named in `file`'s comment exists (see the module comment for where it is looked up). */
function resolves(file: string, named: string): boolean {
  const clean = named.replace(/[.,]+$/, '').replace(/\/$/, '');
  const glob = /[*{]/.exec(clean);
  const target = glob ? clean.slice(0, clean.lastIndexOf('/', glob.index)) : clean;
  if (target === '') return true;
  const candidates = [target, path.posix.join(path.posix.dirname(file), target)];
  if (SERVER_FOLDERS.some((folder) => target.startsWith(`${folder}/`))) candidates.push(`server/${target}`);
  return candidates.some(exists);
}

/** The offences of one comment, as `file:line: message` strings. */
function offences(file: string, comment: Comment): string[] {
  const out: string[] = [];
  const lines = comment.text.split('\n');
  lines.forEach((text, offset) => {
    const line = comment.line + offset;
    const history = HISTORY.exec(text);
    if (history) out.push(`${file}:${line}: history reference "${history[0]}": move it to the commit body`);
    for (const match of text.matchAll(PATH)) {
      const named = match[1] ?? '';
      if (!resolves(file, named))
        out.push(`${file}:${line}: names ${named.replace(/[.,]+$/, '')}, which does not exist`);
    }
    for (const match of text.matchAll(BARE_MARKDOWN)) {
      const named = match[1] ?? '';
      if (!exists(named) && !exists(path.posix.join(path.posix.dirname(file), named)))
        out.push(`${file}:${line}: names ${named}, which is not in the repository (cite docs/…)`);
    }
    if (OUTSIDE.test(text))
      out.push(`${file}:${line}: cites ../shared, which a reader of the repository cannot see`);
  });
  return out;
}

const offenders = new Map<string, string[]>();
for (const file of handWrittenFiles()) {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const comments = commentsOf(file, text);
  if (!comments) continue;
  const found = comments.flatMap((comment) => offences(file, comment));
  if (found.length > 0) offenders.set(file, found);
}

process.exitCode = settle(
  'comments',
  offenders,
  'Cite files that exist (docs/design.md sections, docs/toolchain.md) and keep history in commit bodies.',
);
