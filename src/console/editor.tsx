// The request body's editor: CodeMirror 6 with JSON syntax, and a linter that marks, where they are in the
// text, the body's problems as the sandbox's own checks name them (JSON pointer and the schema's words).

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { syntaxTree } from '@codemirror/language';
import { type Diagnostic, forceLinting, linter, lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'preact/hooks';
import { unescapePointerToken } from '../client/lookup/index.js';
import type { Problem } from './model.js';

type Node = ReturnType<typeof syntaxTree>['topNode'];

/** The text range of the value at a JSON pointer (`/destination/type`), else the whole text. */
function rangeOf(state: EditorState, pointer: string): { from: number; to: number } {
  const whole = { from: 0, to: state.doc.length };
  let node: Node | null = syntaxTree(state).topNode.firstChild;
  if (!node) return whole;
  for (const raw of pointer.split('/').slice(1)) {
    const part = unescapePointerToken(raw);
    let next: Node | null = null;
    if (node.name === 'Object') {
      for (let child: Node | null = node.firstChild; child; child = child.nextSibling) {
        if (child.name !== 'Property') continue;
        const name = child.getChild('PropertyName');
        if (name && JSON.parse(state.sliceDoc(name.from, name.to)) === part) next = child.lastChild;
      }
    } else if (node.name === 'Array') {
      let index = 0;
      for (let child: Node | null = node.firstChild; child; child = child.nextSibling) {
        if (child.name === '[' || child.name === ']' || child.name === ',') continue;
        if (String(index++) === part) next = child;
      }
    }
    if (!next) return { from: node.from, to: node.to };
    node = next;
  }
  return { from: node.from, to: node.to };
}

export interface BodyEditorProps {
  label: string;
  value: string;
  onChange(text: string): void;
  /** The body's problems from the request check (`where` is `body` or `body <pointer>`). */
  problems: Problem[];
}

export function BodyEditor({ label, value, onChange, problems }: BodyEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const latest = useRef({ onChange, problems });
  latest.current = { onChange, problems };

  useEffect(() => {
    const schemaLinter = linter(
      (v): Diagnostic[] =>
        latest.current.problems
          .filter((p) => p.where === 'body' || p.where.startsWith('body /'))
          .map((p) => ({ ...rangeOf(v.state, p.where.slice(5)), severity: 'error', message: p.message })),
      { delay: 100 },
    );
    view.current = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          json(),
          linter(jsonParseLinter()),
          schemaLinter,
          lintGutter(),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true', role: 'textbox' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    return () => view.current?.destroy();
  }, [label]);

  // Text set from outside (another operation, the tenant's values): the editor follows.
  useEffect(() => {
    const current = view.current;
    const now = current?.state.doc.toString();
    if (!current || now === undefined || now === value) return;
    // Only the part that differs is replaced (a fresh ID after a send), so the rest of the text, and where the
    // reader's cursor is, stay as they are.
    let start = 0;
    while (start < now.length && start < value.length && now[start] === value[start]) start++;
    let end = 0;
    while (end < now.length - start && end < value.length - start && now.at(-1 - end) === value.at(-1 - end)) end++;
    current.dispatch({
      changes: { from: start, to: now.length - end, insert: value.slice(start, value.length - end) },
    });
  }, [value]);

  useEffect(() => {
    if (view.current) forceLinting(view.current);
  }, [problems]);

  return <div class="rc-editor" ref={host} />;
}
