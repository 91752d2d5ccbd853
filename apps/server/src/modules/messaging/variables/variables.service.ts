import {
  DEFAULT_VARIABLE_CATEGORY,
  type Variable,
  type VariableUpdate,
  type VariableValues,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../../db/database.js';
import type { VariableRow } from '../../../db/messaging-tables.js';
import { ConflictError, NotFoundError } from '../../../lib/errors.js';
import { isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import * as repo from './variables.repository.js';
import { SEEDED_VARIABLES } from './variables.seed.js';

function toVariable(row: VariableRow): Variable {
  return {
    id: row.id,
    variable_name: row.variable_name,
    data_type: row.data_type as Variable['data_type'],
    description: row.description,
    category: row.category,
    example_value: row.example_value,
    available_helpers: JSON.parse(row.available_helpers) as string[],
  };
}

/** The catalogue of variables templates can use, shown in the editor's variables panel. */
export class VariablesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
  ) {}

  /**
   * Fills an empty catalogue with the market variables; idempotent. Only an empty one, so a
   * variable an operator deleted or changed stays that way across restarts.
   */
  async seed(): Promise<void> {
    if ((await repo.countVariables(this.db)) > 0) return;
    const now = isoTime(this.now());
    for (const variable of SEEDED_VARIABLES) {
      await repo.insertVariableIfMissing(this.db, {
        ...variable,
        available_helpers: JSON.stringify(variable.available_helpers),
        created_at: now,
        updated_at: now,
      });
    }
  }

  async list(): Promise<Variable[]> {
    return (await repo.listVariables(this.db)).map(toVariable);
  }

  get(id: number): Promise<Variable> {
    return this.load(this.db, id);
  }

  private async load(db: Executor, id: number): Promise<Variable> {
    const row = await repo.findVariable(db, id);
    if (!row) throw new NotFoundError(`There is no template variable ${id}`);
    return toVariable(row);
  }

  async create(actor: Actor, values: VariableValues): Promise<Variable> {
    return this.db.transaction().execute(async (trx) => {
      await this.ensureNameFree(trx, values.variable_name);
      const now = isoTime(this.now());
      const id = await repo.insertVariable(trx, {
        ...values,
        available_helpers: JSON.stringify(values.available_helpers),
        created_at: now,
        updated_at: now,
      });
      const variable = await this.load(trx, id);
      await this.audit.record(trx, actor, {
        action: 'variable.created',
        resourceType: 'variable',
        resourceId: id,
        newValue: variable,
      });
      return variable;
    });
  }

  /** Fields left out keep their values; a null category goes back to the default group. */
  async update(actor: Actor, id: number, changes: VariableUpdate): Promise<Variable> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.load(trx, id);
      if (changes.variable_name !== undefined && changes.variable_name !== before.variable_name) {
        await this.ensureNameFree(trx, changes.variable_name);
      }
      await repo.updateVariable(trx, id, {
        ...(changes.variable_name !== undefined && { variable_name: changes.variable_name }),
        ...(changes.data_type !== undefined && { data_type: changes.data_type }),
        ...(changes.description !== undefined && { description: changes.description ?? '' }),
        ...(changes.category !== undefined && { category: changes.category || DEFAULT_VARIABLE_CATEGORY }),
        ...(changes.example_value !== undefined && { example_value: changes.example_value }),
        ...(changes.available_helpers !== undefined && {
          available_helpers: JSON.stringify(changes.available_helpers),
        }),
        updated_at: isoTime(this.now()),
      });
      const after = await this.load(trx, id);
      await this.audit.record(trx, actor, {
        action: 'variable.updated',
        resourceType: 'variable',
        resourceId: id,
        oldValue: before,
        newValue: after,
      });
      return after;
    });
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const variable = await this.load(trx, id);
      await repo.deleteVariable(trx, id);
      await this.audit.record(trx, actor, {
        action: 'variable.deleted',
        resourceType: 'variable',
        resourceId: id,
        oldValue: variable,
      });
    });
  }

  private async ensureNameFree(db: Executor, name: string) {
    if (await repo.findVariableByName(db, name)) {
      throw new ConflictError(`The catalogue already has a variable named '${name}'`);
    }
  }
}
