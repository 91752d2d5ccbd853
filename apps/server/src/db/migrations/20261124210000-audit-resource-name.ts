import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * Resource names in the audit log (docs/api.md, "The audit log"): an audit entry keeps the name its resource
 * had at the time of the change, so the log reads "Updated user ann" and still does after ann is deleted.
 * Entries written before stay null and show the id.
 */
export const auditResourceName = () => ({
  async up(db: Db) {
    await db.schema.alterTable('audit_logs').addColumn('resource_name', 'text').execute();
  },
  async down(db: Db) {
    await db.schema.alterTable('audit_logs').dropColumn('resource_name').execute();
  },
});
