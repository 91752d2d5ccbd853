// How `npm run bench` (scripts/bench.mjs) writes its figures: whole numbers with thousands separators,
// one line at a time on stdout.

export const fmt = (n) => Math.round(n).toLocaleString('en');
export const say = (text = '') => process.stdout.write(`${text}\n`);
