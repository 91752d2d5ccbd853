import type { UsageKind } from '../../db/limit-tables.js';

/** One kind's ids and their slots (-1 where a place is free), open-addressed, and how many are used. */
export interface IdTableImage {
  ids: Float64Array;
  at: Int32Array;
  size: number;
}

/** The slots' places as SubjectSlots holds them, to be handed to another thread (a copy). */
export interface SubjectSlotsImage {
  chats: IdTableImage;
  users: IdTableImage;
  named: [string, number][];
}

const FREE = -1;
/** Ids of at most this many digits are whole numbers a double holds exactly (below 2^53). */
const ID_DIGITS_MAX = 15;

/**
 * A whole number from 0 to 2^31 - 1 for each subject: where its slot is in the allowance's mirror
 * (usage-mirror.ts), its row in a buffer of what the allowance counted (event-buffer.ts), its count in a
 * bucket of the request limits' counts (exact-grants.ts). Chats' and users' ids, whole
 * numbers written as JavaScript writes them, are kept in open-addressed tables of typed arrays, which the
 * garbage collector never walks; any other subject (a feature's name, an id written otherwise) in a Map.
 * A million chats take 24 MB and no object here, where a Map of their keys held two million strings and
 * entries for every major collection to mark (docs/benchmarks.md, "Allowance").
 */
export class SubjectSlots {
  private constructor(
    private readonly chats: IdTable,
    private readonly users: IdTable,
    private readonly named: Map<string, number>,
  ) {}

  static empty(): SubjectSlots {
    return new SubjectSlots(IdTable.sized(1024), IdTable.sized(1024), new Map());
  }

  /** The slots an image holds (image()), its arrays taken as they are. */
  static from(image: SubjectSlotsImage): SubjectSlots {
    return new SubjectSlots(new IdTable(image.chats), new IdTable(image.users), new Map(image.named));
  }

  get size(): number {
    return this.chats.size + this.users.size + this.named.size;
  }

  get(kind: UsageKind, subject: string): number | undefined {
    const table = this.tableOf(kind);
    const id = table ? idOf(subject) : Number.NaN;
    return table && !Number.isNaN(id) ? table.get(id) : this.named.get(`${kind}|${subject}`);
  }

  /** Places a subject's number (a slot's first index, a row, a count); `at` is never negative. */
  set(kind: UsageKind, subject: string, at: number): void {
    const table = this.tableOf(kind);
    const id = table ? idOf(subject) : Number.NaN;
    if (table && !Number.isNaN(id)) table.set(id, at);
    else this.named.set(`${kind}|${subject}`, at);
  }

  image(): SubjectSlotsImage {
    return { chats: this.chats.copy(), users: this.users.copy(), named: [...this.named] };
  }

  private tableOf(kind: UsageKind): IdTable | null {
    if (kind === 'chat') return this.chats;
    if (kind === 'user') return this.users;
    return null;
  }
}

class IdTable implements IdTableImage {
  ids: Float64Array;
  at: Int32Array;
  size: number;
  private mask: number;

  constructor(image: IdTableImage) {
    this.ids = image.ids;
    this.at = image.at;
    this.size = image.size;
    this.mask = image.at.length - 1;
  }

  /** An empty table of `capacity` places, a power of two. */
  static sized(capacity: number): IdTable {
    return new IdTable({ ids: new Float64Array(capacity), at: new Int32Array(capacity).fill(FREE), size: 0 });
  }

  get(id: number): number | undefined {
    for (let i = hash(id) & this.mask; ; i = (i + 1) & this.mask) {
      const at = this.at[i]!;
      if (at === FREE) return undefined;
      if (this.ids[i] === id) return at;
    }
  }

  set(id: number, at: number): void {
    // Filled past half, probes grow long.
    if ((this.size + 1) * 2 > this.at.length) this.grow();
    for (let i = hash(id) & this.mask; ; i = (i + 1) & this.mask) {
      if (this.at[i] === FREE) {
        this.ids[i] = id;
        this.at[i] = at;
        this.size += 1;
        return;
      }
      if (this.ids[i] === id) {
        this.at[i] = at;
        return;
      }
    }
  }

  /** Twice the places, every id placed anew. */
  private grow(): void {
    const { ids, at } = this;
    this.ids = new Float64Array(ids.length * 2);
    this.at = new Int32Array(at.length * 2).fill(FREE);
    this.mask = this.at.length - 1;
    this.size = 0;
    for (let i = 0; i < at.length; i += 1) if (at[i] !== FREE) this.set(ids[i]!, at[i]!);
  }

  copy(): IdTableImage {
    return { ids: this.ids.slice(), at: this.at.slice(), size: this.size };
  }
}

/**
 * A subject that is a whole number of at most ID_DIGITS_MAX digits written as String writes it ("-100123",
 * "0"; not "007", "-0" or "+1"), as that number; NaN for any other. Two subjects that differ are never the
 * same number.
 */
export function idOf(subject: string): number {
  const length = subject.length;
  const negative = subject.charCodeAt(0) === 45; // '-'
  const first = negative ? 1 : 0;
  const digits = length - first;
  if (digits < 1 || digits > ID_DIGITS_MAX) return Number.NaN;
  // A leading zero is only "0" itself.
  if (subject.charCodeAt(first) === 48 && (digits > 1 || negative)) return Number.NaN;
  let value = 0;
  for (let i = first; i < length; i += 1) {
    const digit = subject.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

/** Mixes both halves of a whole number below 2^53 into 32 bits (MurmurHash3's finalizer). */
function hash(id: number): number {
  const low = id | 0;
  const high = Math.floor(id / 4_294_967_296) | 0;
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
