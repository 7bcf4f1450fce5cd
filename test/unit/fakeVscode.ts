// The part of the `vscode` API that the src/ modules under unit test use, for node's test runner:
// esbuild's --unit build resolves `vscode` to this file (see esbuild.mjs). What the modules show,
// run and store is recorded in `fake`, and a test can queue the answers to messages.
import { readFileSync, promises as fsPromises } from 'node:fs';
import { posix } from 'node:path';

type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly onDispose: () => unknown) {}
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class FileSystemError extends Error {
  static FileNotFound(what?: unknown): FileSystemError {
    return new FileSystemError(`FileNotFound: ${String(what)}`);
  }
  static NoPermissions(what?: unknown): FileSystemError {
    return new FileSystemError(`NoPermissions: ${String(what)}`);
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
  ) {}
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '');
  }
  static parse(text: string): Uri {
    const url = new URL(text);
    return new Uri(url.protocol.replace(/:$/, ''), url.host, url.pathname, url.search.replace(/^\?/, ''));
  }
  /** A file on this machine (the write tools' tests read real files in a temporary folder). */
  static file(path: string): Uri {
    return new Uri('file', '', path, '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, base.authority, posix.join(base.path, ...segments), base.query);
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query);
  }
  toString(): string {
    return `${this.scheme}:${this.authority ? `//${this.authority}` : ''}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}

export class Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
}

export class CancellationTokenSource {
  private readonly listeners: (() => unknown)[] = [];
  readonly token = { isCancellationRequested: false, onCancellationRequested: (listener: () => unknown) => (this.listeners.push(listener), new Disposable(() => undefined)) };
  cancel(): void {
    this.token.isCancellationRequested = true;
    for (const listener of this.listeners) listener();
  }
  dispose(): void {}
}

/** No extension is installed (Git's neither: code is "local", without a permalink). */
export const extensions = { getExtension: (): undefined => undefined };

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export class TabInputText {
  constructor(readonly uri: Uri) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  [field: string]: unknown;
  constructor(
    public label?: string,
    public collapsibleState?: TreeItemCollapsibleState,
  ) {}
}

export enum QuickPickItemKind {
  Separator = -1,
  Default = 0,
}

/** A quick pick as a module showed it: its items and options. */
export interface ShownPick {
  items: { label: string; description?: string; detail?: string; kind?: QuickPickItemKind }[];
  options: { title?: string } | undefined;
}

export const l10n = {
  t: (message: string, ...args: unknown[]): string => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])),
};

export interface ShownMessage {
  level: 'info' | 'warn' | 'error';
  text: string;
  buttons: string[];
  modal: boolean;
}

interface FakeDocument {
  uri: Uri;
  isDirty: boolean;
  text: string;
  save(): Promise<boolean>;
}

/** What the modules did, and what the test lets them find. */
export const fake = {
  messages: [] as ShownMessage[],
  /** Answers for the next messages with buttons, in order; undefined is "dismissed". */
  answers: [] as (string | undefined)[],
  executed: [] as { command: string; args: unknown[] }[],
  opened: [] as string[],
  logLines: [] as string[],
  config: new Map<string, unknown>(),
  documents: [] as FakeDocument[],
  configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  /** Progress notifications started, by title. */
  progress: [] as string[],
  /** Progress notifications whose Cancel is pressed once `when` resolves, by title (each once). */
  cancelProgress: [] as { title: string; when: Promise<unknown> }[],
  /** Quick picks shown; each is dismissed (resolves undefined). */
  picks: [] as ShownPick[],
  /** Status bar messages set. */
  statusBar: [] as string[],
  /** The workspace's folders (real folders on disk, for the write tools' files). */
  folders: [] as { uri: Uri; name: string; index: number }[],
  reset(): void {
    this.folders.length = 0;
    this.picks.length = 0;
    this.statusBar.length = 0;
    this.messages.length = 0;
    this.answers.length = 0;
    this.executed.length = 0;
    this.opened.length = 0;
    this.logLines.length = 0;
    this.config.clear();
    this.documents.length = 0;
    this.progress.length = 0;
    this.cancelProgress.length = 0;
  },
};

function show(level: ShownMessage['level']) {
  return (text: string, ...rest: unknown[]): Promise<string | undefined> => {
    const [first, ...others] = rest;
    const options = typeof first === 'object' && first !== null ? (first as { modal?: boolean }) : undefined;
    const buttons = (options ? others : rest) as string[];
    fake.messages.push({ level, text, buttons, modal: options?.modal === true });
    return Promise.resolve(buttons.length > 0 && fake.answers.length > 0 ? fake.answers.shift() : undefined);
  };
}

const cancellation = { isCancellationRequested: false, onCancellationRequested: (_listener: () => unknown) => new Disposable(() => undefined) };

export const window = {
  showInformationMessage: show('info'),
  showWarningMessage: show('warn'),
  showErrorMessage: show('error'),
  setStatusBarMessage(text: string): Disposable {
    fake.statusBar.push(text);
    return new Disposable(() => undefined);
  },
  async showQuickPick(items: ShownPick['items'] | Thenable<ShownPick['items']>, options?: ShownPick['options']): Promise<undefined> {
    fake.picks.push({ items: await items, options });
    return undefined;
  },
  withProgress<T>(options: { title?: string }, task: (progress: { report(): void }, token: typeof cancellation) => Thenable<T>): Thenable<T> {
    const title = options.title ?? '';
    fake.progress.push(title);
    const pressed = fake.cancelProgress.findIndex((cancel) => cancel.title === title);
    if (pressed < 0) return task({ report: () => undefined }, cancellation);
    const { when } = fake.cancelProgress.splice(pressed, 1)[0]!;
    const listeners: (() => unknown)[] = [];
    const token = { isCancellationRequested: false, onCancellationRequested: (listener: () => unknown) => (listeners.push(listener), new Disposable(() => undefined)) };
    void when.then(() => {
      token.isCancellationRequested = true;
      for (const listener of listeners) listener();
    });
    return task({ report: () => undefined }, token);
  },
  createOutputChannel: () => {
    const line = (level: string) => (text: string) => void fake.logLines.push(`${level} ${text}`);
    return { info: line('info'), warn: line('warn'), error: line('error'), show: () => undefined, dispose: () => undefined };
  },
  tabGroups: { all: [] as { tabs: { input: unknown }[] }[], close: () => Promise.resolve(true) },
  activeTextEditor: undefined as unknown,
  showTextDocument: (document: unknown) => Promise.resolve({ document }),
};

export const workspace = {
  get textDocuments(): FakeDocument[] {
    return fake.documents;
  },
  getConfiguration(section?: string) {
    const key = (name: string) => (section ? `${section}.${name}` : name);
    return {
      get: <T>(name: string, fallback?: T): T | undefined => (fake.config.has(key(name)) ? (fake.config.get(key(name)) as T) : fallback),
      update: (name: string, value: unknown) => {
        fake.config.set(key(name), value);
        fake.configurationChanged.fire({ affectsConfiguration: (s: string) => key(name) === s || key(name).startsWith(`${s}.`) });
        return Promise.resolve();
      },
    };
  },
  onDidChangeConfiguration: fake.configurationChanged.event,
  openTextDocument: (uri: Uri) => Promise.resolve(fake.documents.find((d) => d.uri.toString() === uri.toString()) ?? (uri.scheme === 'file' ? diskDocument(uri) : { uri })),
  get workspaceFolders() {
    return fake.folders.length ? fake.folders : undefined;
  },
  getWorkspaceFolder: (uri: Uri) => fake.folders.find((f) => uri.scheme === f.uri.scheme && (uri.path === f.uri.path || uri.path.startsWith(`${f.uri.path}/`))),
  asRelativePath(uri: Uri, includeFolder?: boolean): string {
    const folder = workspace.getWorkspaceFolder(uri);
    if (!folder) return uri.path;
    const relative = uri.path.slice(folder.uri.path.length + 1);
    return includeFolder && fake.folders.length > 1 ? `${folder.name}/${relative}` : relative;
  },
  /** As VS Code's: a symbolic link is followed, and its type is that of its target with SymbolicLink added. */
  fs: {
    async stat(uri: Uri): Promise<{ type: FileType }> {
      const [target, link] = await Promise.all([fsPromises.stat(uri.path), fsPromises.lstat(uri.path)]);
      const type = target.isFile() ? FileType.File : target.isDirectory() ? FileType.Directory : FileType.Unknown;
      return { type: type | (link.isSymbolicLink() ? FileType.SymbolicLink : 0) };
    },
    // Real files at the URI's path, whatever its scheme; a watcher hears what is written through here.
    readFile: (uri: Uri) => diskOp(uri, () => fsPromises.readFile(uri.path).catch((error: unknown) => Promise.reject(FileSystemError.FileNotFound(error)))),
    writeFile: (uri: Uri, content: Uint8Array) => diskOp(uri, () => fsPromises.writeFile(uri.path, content), 'change'),
    createDirectory: (uri: Uri) => diskOp(uri, () => fsPromises.mkdir(uri.path, { recursive: true }).then(() => undefined)),
    delete: (uri: Uri) => diskOp(uri, () => fsPromises.rm(uri.path), 'delete'),
    rename: (from: Uri, to: Uri, _options?: { overwrite?: boolean }) => diskOp(to, () => fsPromises.rename(from.path, to.path), 'change'),
  },
  createFileSystemWatcher(pattern: RelativePattern) {
    const folder = typeof pattern.base === 'string' ? pattern.base : pattern.base.path;
    const [created, changed, deleted] = [new EventEmitter<Uri>(), new EventEmitter<Uri>(), new EventEmitter<Uri>()];
    const watcher = { folder, suffix: pattern.pattern.replace(/^\*/, ''), changed, deleted };
    diskWatchers.add(watcher);
    return { onDidCreate: created.event, onDidChange: changed.event, onDidDelete: deleted.event, dispose: () => diskWatchers.delete(watcher) };
  },
};

export class RelativePattern {
  constructor(
    readonly base: Uri | string,
    readonly pattern: string,
  ) {}
}

/** The watchers of folders (a `*.suffix` pattern each); they hear a change after the operation, as VS Code's do. */
const diskWatchers = new Set<{ folder: string; suffix: string; changed: EventEmitter<Uri>; deleted: EventEmitter<Uri> }>();

/** Disk operations under way through `workspace.fs` (a test with a fake clock waits for none: see `diskIdle`). */
let diskPending = 0;

/** Run before each disk write, rename or delete through `workspace.fs` (a test steps in mid-write: a sign-out, a focus change, a window closing). */
export const diskHooks = { beforeWrite: undefined as ((uri: Uri) => unknown) | undefined };

async function diskOp<T>(uri: Uri, op: () => Promise<T>, heard?: 'change' | 'delete'): Promise<T> {
  diskPending += 1;
  try {
    if (heard) await diskHooks.beforeWrite?.(uri);
    const result = await op();
    if (heard) {
      for (const watcher of diskWatchers) {
        if (posix.dirname(uri.path) === watcher.folder && uri.path.endsWith(watcher.suffix)) (heard === 'change' ? watcher.changed : watcher.deleted).fire(uri);
      }
    }
    return result;
  } finally {
    diskPending -= 1;
  }
}

/** Resolves once no disk operation has been under way through `workspace.fs` for a few turns of the event loop. */
export async function diskIdle(): Promise<void> {
  for (let quiet = 0; quiet < 3; ) {
    await new Promise((resolve) => setImmediate(resolve));
    quiet = diskPending === 0 ? quiet + 1 : 0;
  }
}

/** A text file on disk as a TextDocument (what the write tools read of it). */
function diskDocument(uri: Uri) {
  const lines = readFileSync(uri.path, 'utf8').split(/\r?\n/);
  return {
    uri,
    isDirty: false,
    languageId: 'typescript',
    lineCount: lines.length,
    lineAt: (line: number) => ({ text: lines[line]! }),
    getText: (range: Range) =>
      lines
        .slice(range.startLine, range.endLine + 1)
        .map((text, i, all) => (i === all.length - 1 ? text.slice(0, range.endCharacter) : text))
        .map((text, i) => (i === 0 ? text.slice(range.startCharacter) : text))
        .join('\n'),
  };
}

export const commands = {
  executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    fake.executed.push({ command, args });
    return Promise.resolve(undefined);
  },
};

export const env = {
  openExternal(uri: Uri): Promise<boolean> {
    fake.opened.push(uri.toString());
    return Promise.resolve(true);
  },
  clipboard: { writeText: () => Promise.resolve() },
};

export const languages = {
  setTextDocumentLanguage: (document: unknown) => Promise.resolve(document),
};

/** An in-memory Memento like the extension's global state, as one window sees it. */
export interface Memento {
  keys(): readonly string[];
  get<T>(key: string, fallback?: T): T | undefined;
  update(key: string, value: unknown): Promise<void>;
}
