// A terminal progress bar: redrawn in place with \r on a TTY, a line per tenth otherwise (CI logs, pipes).
const WIDTH = 28;

function formatSeconds(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * @param {{label: string, stream?: NodeJS.WriteStream}} options
 * update(fraction, detail) redraws (at most every 100 ms); finish(message) ends the line.
 */
export function createProgress({ label, stream = process.stderr }) {
  const tty = Boolean(stream.isTTY);
  const started = Date.now();
  let lastDraw = 0;
  let lastTenth = -1;

  function line(fraction, detail) {
    const filled = Math.round(Math.min(1, Math.max(0, fraction)) * WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
    const percent = `${Math.floor(fraction * 100)}`.padStart(3);
    const elapsed = Date.now() - started;
    const eta =
      fraction > 0.02 && fraction < 1
        ? `, ~${formatSeconds((elapsed / fraction) * (1 - fraction))} left`
        : '';
    return `${label} ${bar} ${percent} %  ${detail ?? ''} (${formatSeconds(elapsed)}${eta})`;
  }

  return {
    update(fraction, detail) {
      if (tty) {
        const now = Date.now();
        if (now - lastDraw < 100 && fraction < 1) return;
        lastDraw = now;
        stream.write(`\r${line(fraction, detail)}\x1b[K`);
        return;
      }
      const tenth = Math.floor(fraction * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`${line(fraction, detail)}\n`);
      }
    },
    finish(message) {
      if (message === undefined && !tty && lastTenth === 10) return;
      const text = message ?? line(1);
      stream.write(tty ? `\r${text}\x1b[K\n` : `${text}\n`);
    },
    elapsedMs: () => Date.now() - started,
  };
}
