import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  buildPostgresTemplate,
  buildSqliteTemplate,
  dropPostgresDatabase,
  dropPostgresDatabasesNamed,
  migrationsKey,
  type DatabaseTemplates,
} from './database-templates.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/**
 * Migrates the template databases once per run (test/database-templates.ts), hands their names to the test
 * files (inject('databaseTemplates')) and removes them when the run ends. In watch mode they are built
 * again before a rerun when the migrations changed.
 */
export default async function setup(project: TestProject) {
  const baseUrl = process.env.TEST_DATABASE_URL || undefined;
  // The process id keeps apart the databases of runs that share the PostgreSQL server.
  const runId = String(process.pid);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumi-test-templates-'));
  let current: DatabaseTemplates | undefined;

  const remove = async (templates: DatabaseTemplates) => {
    rmSync(templates.sqliteFile, { force: true });
    if (baseUrl && templates.postgres) await dropPostgresDatabase(baseUrl, templates.postgres);
  };

  const build = async () => {
    const key = migrationsKey();
    if (current?.key === key) return;
    if (current) await remove(current);
    current = undefined;
    const sqliteFile = path.join(dir, `lumi-${key}.db`);
    await buildSqliteTemplate(sqliteFile);
    const postgres = baseUrl ? `lumi_template_${key}_${runId}` : undefined;
    if (baseUrl && postgres) await buildPostgresTemplate(baseUrl, postgres);
    current = { runId, key, sqliteFile, ...(postgres && { postgres }) };
    project.provide('databaseTemplates', current);
  };

  try {
    await build();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  project.onTestsRerun(build);

  return async () => {
    if (current) await remove(current);
    if (baseUrl) await dropPostgresDatabasesNamed(baseUrl, `lumi_test_${runId}_`);
    rmSync(dir, { recursive: true, force: true });
  };
}
