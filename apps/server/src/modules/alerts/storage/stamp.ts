/** Who changed an alerting record, and when. */
export interface Stamp {
  at: string;
  by: string | null;
}
