/**
 * Progress of a long command-line task (the NYC import of `npm run cli -- import …` and of `npm start`'s first run):
 * a progress bar (cli-progress) when standard output is a terminal, plain lines otherwise, so a log file or a pipe
 * gets one readable line per step instead of a bar's carriage returns. The task reports through
 * `onProgress(done, total)`, the callback the importer takes; nothing here knows what is imported.
 */
import cliProgress from 'cli-progress';

/** What {@link progressReporter} returns: the callback for the task, and `stop` once it has ended. */
export interface ProgressReporter {
  /** `done` of `total` units are finished (called by the task; `done` only grows). */
  onProgress(done: number, total: number): void;
  /** Ends the report (removes the bar; plain mode prints the last line if the task did not reach its total). */
  stop(): void;
  /** `bar` on a terminal, `plain` otherwise. */
  readonly mode: 'bar' | 'plain';
}

/** Options of {@link progressReporter}. */
export interface ProgressOptions {
  /** What is counted, plural ("status reports"). */
  unit: string;
  /** Words before the count ("imported"). */
  label: string;
  /** Where the bar is drawn and whose `isTTY` decides the mode (default `process.stdout`). */
  stream?: NodeJS.WriteStream;
  /** Where plain lines go (default: stderr, so a command's output on stdout stays parseable). */
  line?: (text: string) => void;
  /** A plain line every this many units (default 250), and always at the end. */
  every?: number;
}

/** A reporter for one task: bar or plain lines, chosen by whether `stream` is a terminal. */
export function progressReporter(options: ProgressOptions): ProgressReporter {
  const stream = options.stream ?? process.stdout;
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${options.label} [{bar}] {percentage}% | {value}/{total} ${options.unit} | {duration_formatted}`,
        hideCursor: true,
        clearOnComplete: false,
        // The importer reports every row: redraw at most ten times a second.
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      mode: 'bar',
      onProgress(done, total) {
        if (!started) {
          bar.start(total, done);
          started = true;
        } else {
          bar.setTotal(total);
          bar.update(done);
        }
      },
      stop() {
        if (started) bar.stop();
      },
    };
  }
  const line = options.line ?? ((text: string) => process.stderr.write(`${text}\n`));
  const every = options.every ?? 250;
  let printed = 0;
  let latest = { done: 0, total: 0 };
  const print = (done: number, total: number) => {
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    line(`${options.label} ${done}/${total} ${options.unit} (${percent} %)`);
    printed = done;
  };
  return {
    mode: 'plain',
    onProgress(done, total) {
      latest = { done, total };
      // At each multiple of `every` passed (skipped rows may make the task start far from 0) and at the end.
      if (done === total || Math.floor(done / every) > Math.floor(printed / every)) print(done, total);
    },
    stop() {
      // A task that ended short of its total (it failed part way) still shows how far it got.
      if (latest.done !== printed) print(latest.done, latest.total);
    },
  };
}
