import { ALLOWANCE_REASONS, type AllowanceReason } from '@lumi/contract';
import type { UsageGrain, UsageKind } from '../../db/limit-tables.js';
import { isoTime } from '../../lib/time.js';
import { grown } from '../../lib/typed-arrays.js';
import type { DenialRow, GrantKey } from './limit-events.js';
import type { GrantCount } from './limit-grants.repository.js';
import { idOf, SubjectSlots } from './subject-slots.js';

/** A call the allowance denied, or admitted over a soft limit, at `at` (ms since the epoch). */
export interface Denial {
  at: number;
  chat_id: string | null;
  user_id: string | null;
  feature: string | null;
  reason: AllowanceReason;
  limit_id: number | null;
}

const KINDS: readonly UsageKind[] = ['chat', 'user', 'feature'];
const NONE = -1;

/** A grain and bucket's counters: each row's cell (NONE where it has none). */
interface Column {
  grain: UsageGrain;
  bucket: string;
  cellOf: Int32Array;
}

/**
 * One buffer of what the allowance counted (limit-events.ts): the grants per counter and the denials, kept as
 * numbers in typed arrays. A buffer lives up to a second at thousands of checks a second; as objects and
 * strings its contents outlived the young generation's collections, each of which copied and then promoted
 * them (docs/benchmarks.md, "Allowance"). Rows and denials come out as objects only for their write.
 *
 * A subject is a row: its kind, and its id as a number where it is one (subject-slots.ts, idOf), else its
 * name. A counter is a cell: a row in a column of a grain and bucket. Cells and denials keep the order they
 * came in; a write stores them in that order, and `letGo` drops the cells stored so far from `granted`.
 */
export class EventBuffer {
  private readonly rowOf = SubjectSlots.empty();
  private rowKind = new Uint8Array(64);
  private rowId = new Float64Array(64);
  private readonly rowName = new Map<number, string>();

  private readonly columns: Column[] = [];
  private cellRow = new Int32Array(64);
  private cellColumn = new Int32Array(64);
  private cellCount = new Float64Array(64);
  private cells = 0;
  /** Cells before this one were stored: they count no more (`granted`). */
  private cellsLetGo = 0;

  private denialAt = new Float64Array(16);
  private denialChat = new Int32Array(16);
  private denialUser = new Int32Array(16);
  private denialFeature = new Int32Array(16);
  private denialReason = new Uint8Array(16);
  /** A denial's limit's id, NaN for none. */
  private denialLimit = new Float64Array(16);
  private denials = 0;

  /** How many counters were counted here. */
  get grantCount(): number {
    return this.cells;
  }

  get denialCount(): number {
    return this.denials;
  }

  get empty(): boolean {
    return this.cells === 0 && this.denials === 0;
  }

  grant(key: GrantKey, count: number): void {
    const row = this.rowFor(key.kind, key.subject);
    const at = this.columnFor(key.grain, key.bucket);
    const column = this.columns[at]!;
    let cell = row < column.cellOf.length ? column.cellOf[row]! : NONE;
    if (cell === NONE) {
      cell = this.cells++;
      if (cell === this.cellRow.length) {
        this.cellRow = grown(this.cellRow);
        this.cellColumn = grown(this.cellColumn);
        this.cellCount = grown(this.cellCount);
      }
      this.cellRow[cell] = row;
      this.cellColumn[cell] = at;
      this.cellCount[cell] = 0;
      if (row >= column.cellOf.length) column.cellOf = grown(column.cellOf, this.rowKind.length, NONE);
      column.cellOf[row] = cell;
    }
    this.cellCount[cell] = this.cellCount[cell]! + count;
  }

  /** What is counted here for a counter and not let go. */
  granted(key: GrantKey): number {
    const row = this.rowOf.get(key.kind, key.subject);
    const at = this.columnAt(key.grain, key.bucket);
    if (row === undefined || at === NONE) return 0;
    const { cellOf } = this.columns[at]!;
    const cell = row < cellOf.length ? cellOf[row]! : NONE;
    return cell >= this.cellsLetGo ? this.cellCount[cell]! : 0;
  }

  deny(denial: Denial): void {
    const at = this.denials++;
    if (at === this.denialAt.length) {
      this.denialAt = grown(this.denialAt);
      this.denialChat = grown(this.denialChat);
      this.denialUser = grown(this.denialUser);
      this.denialFeature = grown(this.denialFeature);
      this.denialReason = grown(this.denialReason);
      this.denialLimit = grown(this.denialLimit);
    }
    this.denialAt[at] = denial.at;
    this.denialChat[at] = denial.chat_id === null ? NONE : this.rowFor('chat', denial.chat_id);
    this.denialUser[at] = denial.user_id === null ? NONE : this.rowFor('user', denial.user_id);
    this.denialFeature[at] = denial.feature === null ? NONE : this.rowFor('feature', denial.feature);
    this.denialReason[at] = ALLOWANCE_REASONS.indexOf(denial.reason);
    this.denialLimit[at] = denial.limit_id ?? Number.NaN;
  }

  /** The counters of cells `from` to `to` (not included), in the order they came in. */
  grantRows(from: number, to: number): GrantCount[] {
    const rows: GrantCount[] = [];
    for (let cell = from; cell < to; cell += 1) {
      const row = this.cellRow[cell]!;
      const { grain, bucket } = this.columns[this.cellColumn[cell]!]!;
      rows.push({
        kind: KINDS[this.rowKind[row]!]!,
        subject: this.subjectOf(row),
        grain,
        bucket,
        granted: this.cellCount[cell]!,
      });
    }
    return rows;
  }

  /** Denials `from` to `to` (not included) as limit_denials stores them, in the order they came in. */
  denialRows(from: number, to: number): DenialRow[] {
    const rows: DenialRow[] = [];
    for (let at = from; at < to; at += 1) {
      const { at: ms, ...denial } = this.denialOf(at);
      rows.push({ ts: isoTime(ms), ...denial });
    }
    return rows;
  }

  /** The cells before `to` were stored: `granted` counts them no more. */
  letGo(to: number): void {
    this.cellsLetGo = Math.max(this.cellsLetGo, to);
  }

  /** Counts the cells from `cell` and the denials from `denial` on in `other` (a write that failed). */
  moveInto(other: EventBuffer, cell: number, denial: number): void {
    for (const row of this.grantRows(cell, this.cells)) other.grant(row, row.granted);
    for (let at = denial; at < this.denials; at += 1) other.deny(this.denialOf(at));
  }

  private denialOf(at: number): Denial {
    const limit = this.denialLimit[at]!;
    return {
      at: this.denialAt[at]!,
      chat_id: this.subjectOrNull(this.denialChat[at]!),
      user_id: this.subjectOrNull(this.denialUser[at]!),
      feature: this.subjectOrNull(this.denialFeature[at]!),
      reason: ALLOWANCE_REASONS[this.denialReason[at]!]!,
      limit_id: Number.isNaN(limit) ? null : limit,
    };
  }

  private rowFor(kind: UsageKind, subject: string): number {
    const known = this.rowOf.get(kind, subject);
    if (known !== undefined) return known;
    const row = this.rowOf.size;
    if (row === this.rowKind.length) {
      this.rowKind = grown(this.rowKind);
      this.rowId = grown(this.rowId);
    }
    this.rowKind[row] = KINDS.indexOf(kind);
    const id = kind === 'feature' ? Number.NaN : idOf(subject);
    this.rowId[row] = id;
    if (Number.isNaN(id)) this.rowName.set(row, subject);
    this.rowOf.set(kind, subject, row);
    return row;
  }

  private subjectOf(row: number): string {
    const id = this.rowId[row]!;
    return Number.isNaN(id) ? this.rowName.get(row)! : String(id);
  }

  private subjectOrNull(row: number): string | null {
    return row === NONE ? null : this.subjectOf(row);
  }

  /** A grain and bucket's place in `columns`, NONE where it has none; the newest are looked at first. */
  private columnAt(grain: UsageGrain, bucket: string): number {
    for (let at = this.columns.length - 1; at >= 0; at -= 1) {
      const column = this.columns[at]!;
      if (column.grain === grain && column.bucket === bucket) return at;
    }
    return NONE;
  }

  private columnFor(grain: UsageGrain, bucket: string): number {
    const at = this.columnAt(grain, bucket);
    if (at !== NONE) return at;
    return this.columns.push({ grain, bucket, cellOf: new Int32Array(this.rowKind.length).fill(NONE) }) - 1;
  }
}
