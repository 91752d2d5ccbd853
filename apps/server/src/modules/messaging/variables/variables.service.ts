import {
  DEFAULT_VARIABLE_CATEGORY,
  type Variable,
  type VariableUpdate,
  type VariableValues,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import { AuditedEntity } from '../../../db/audited-entity.js';
import type { Database, Executor } from '../../../db/database.js';
import { ConflictError, NotFoundError } from '../../../lib/errors.js';
import { isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import * as repo from './variables.repository.js';
import { SEEDED_VARIABLES } from './variables.seed.js';

/** The catalogue of variables templates can use, shown in the editor's variables panel. */
export class VariablesService {
  private readonly variables: AuditedEntity<Variable>;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    private readonly now: Clock,
  ) {
    this.variables = new AuditedEntity(audit, {
      load: (db, id) => this.load(db, id),
      delete: repo.deleteVariable,
      resourceType: 'variable',
      name: (variable) => variable.variable_name,
    });
  }

  /**
   * Fills an empty catalogue with SEEDED_VARIABLES (variables.seed.ts); idempotent. Only an empty one, so
   * a variable an operator deleted or changed stays that way across restarts.
   */
  async seed(): Promise<void> {
    if ((await repo.countVariables(this.db)) > 0) return;
    const now = isoTime(this.now());
    for (const variable of SEEDED_VARIABLES) await repo.insertVariableIfMissing(this.db, variable, now);
  }

  list(): Promise<Variable[]> {
    return repo.listVariables(this.db);
  }

  get(id: number): Promise<Variable> {
    return this.load(this.db, id);
  }

  private async load(db: Executor, id: number): Promise<Variable> {
    const variable = await repo.findVariable(db, id);
    if (!variable) throw new NotFoundError(`There is no template variable ${id}`);
    return variable;
  }

  async create(actor: Actor, values: VariableValues): Promise<Variable> {
    return this.db.transaction().execute((trx) =>
      this.variables.create(trx, actor, async () => {
        await this.ensureNameFree(trx, values.variable_name);
        return repo.insertVariable(trx, values, isoTime(this.now()));
      }),
    );
  }

  /** Fields left out keep their values; a null category goes back to the default group. */
  async update(actor: Actor, id: number, changes: VariableUpdate): Promise<Variable> {
    return this.db.transaction().execute((trx) =>
      this.variables.update(trx, actor, id, async (before) => {
        if (changes.variable_name !== undefined && changes.variable_name !== before.variable_name) {
          await this.ensureNameFree(trx, changes.variable_name);
        }
        const { description, category, ...fields } = changes;
        const values = {
          ...fields,
          ...(description !== undefined && { description: description ?? '' }),
          ...(category !== undefined && { category: category || DEFAULT_VARIABLE_CATEGORY }),
        };
        await repo.updateVariable(trx, id, values, isoTime(this.now()));
      }),
    );
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute((trx) => this.variables.remove(trx, actor, id));
  }

  private async ensureNameFree(db: Executor, name: string) {
    if (await repo.findVariableByName(db, name)) {
      throw new ConflictError(`The catalogue already has a variable named '${name}'`);
    }
  }
}
