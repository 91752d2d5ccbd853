// How `npm run demo` (scripts/demo.mjs) writes: lines on stdout, numbers and spans of time in English, the
// time of day as a 24-hour clock.

export const say = (text = '') => process.stdout.write(`${text}\n`);
export const fmt = (n) => n.toLocaleString('en');
export const count = (n, noun) => `${fmt(n)} ${noun}${n === 1 ? '' : 's'}`;
export const span = (n, unit) =>
  new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'long' }).format(n);
export const clock = (ms, seconds = false) =>
  new Date(ms).toLocaleTimeString('en-GB', seconds ? {} : { hour: '2-digit', minute: '2-digit' });
