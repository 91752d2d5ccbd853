import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/handlebars/register';
import 'monaco-editor/languages/features/json/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';

/*
 * Monaco comes from this app's own bundle, never from a CDN (spec section 9 names a public CDN;
 * docs/operators/security.md, "Secure headers": the console's Content-Security-Policy allows scripts and
 * workers from 'self' only). Vite emits the workers as files of their own, so no eval and no cross-origin
 * script is needed.
 *
 * The editor API with every editing feature, but only the languages the console edits (JSON with its
 * validating worker, handlebars for message templates; plain text is built in): the package's main
 * entry would add some eighty other languages and their services.
 */
self.MonacoEnvironment = {
  getWorker: (_workerId, label) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
};

loader.config({ monaco });
