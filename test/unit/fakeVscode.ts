// The part of the `vscode` API that the src/ modules under unit test use, for node's test runner:
// esbuild's --unit build resolves `vscode` to this file (see esbuild.mjs). What the modules show,
// run and store is recorded in `fake`, and a test can queue the answers to messages.
import { readdirSync, readFileSync, watch as watchFolder, promises as fsPromises } from 'node:fs';
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
  constructor(
    message: string,
    readonly code = 'Unknown',
  ) {
    super(message);
  }
  static FileNotFound(what?: unknown): FileSystemError {
    return new FileSystemError(`FileNotFound: ${String(what)}`, 'FileNotFound');
  }
  static FileExists(what?: unknown): FileSystemError {
    return new FileSystemError(`FileExists: ${String(what)}`, 'FileExists');
  }
  static NoPermissions(what?: unknown): FileSystemError {
    return new FileSystemError(`NoPermissions: ${String(what)}`, 'NoPermissions');
  }
  static Unavailable(what?: unknown): FileSystemError {
    return new FileSystemError(String(what), 'Unavailable');
  }
}

/** Node's error as VS Code's file service turns it into a FileSystemError (the codes the modules test). */
function fsError(error: unknown, uri: Uri): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return FileSystemError.FileNotFound(uri);
  if (code === 'EEXIST') return FileSystemError.FileExists(uri);
  return error;
}
async function onDisk<T>(uri: Uri, work: () => Promise<T>): Promise<T> {
  fake.workspaceFsCalls += 1;
  try {
    return await work();
  } catch (error) {
    throw fsError(error, uri);
  }
}

/** Markdown as a hover holds it: its text, and what it lets run. */
export class MarkdownString {
  isTrusted: boolean | { enabledCommands: string[] } = false;
  supportHtml = false;
  constructor(
    public value = '',
    readonly supportThemeIcons = false,
  ) {}
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
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

export class RelativePattern {
  constructor(
    readonly baseUri: Uri,
    readonly pattern: string,
  ) {}
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
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: (listener: () => unknown) => (this.listeners.push(listener), new Disposable(() => undefined)),
  };
  cancel(): void {
    this.token.isCancellationRequested = true;
    for (const listener of this.listeners) listener();
  }
  dispose(): void {}
}

/** No extension is installed (Git's neither: code is "local", without a permalink). */
export const extensions = { getExtension: (): undefined => undefined };

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

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

export enum InputBoxValidationSeverity {
  Info = 1,
  Warning = 2,
  Error = 3,
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

/** A quick pick a module made (`window.createQuickPick`); a test types into it, accepts an item or hides it. */
/** An input box (createInputBox): what it shows, what the progress notifications were when it showed, and the person's moves. */
export class FakeInputBox {
  title: string | undefined;
  prompt: string | undefined;
  placeholder: string | undefined;
  value = '';
  ignoreFocusOut = false;
  buttons: readonly unknown[] = [];
  validationMessage: string | undefined;
  /** fake.progress as it was when the box was shown. */
  progressWhenShown: string[] | undefined;
  hidden = false;
  private readonly changed = new EventEmitter<string>();
  private readonly accepted = new EventEmitter<void>();
  private readonly triggered = new EventEmitter<unknown>();
  private readonly hid = new EventEmitter<void>();
  readonly onDidChangeValue = this.changed.event;
  readonly onDidAccept = this.accepted.event;
  readonly onDidTriggerButton = this.triggered.event;
  readonly onDidHide = this.hid.event;
  show(): void {
    this.progressWhenShown = [...fake.progress];
    fake.inputBoxes.push(this);
  }
  hide(): void {
    if (this.hidden) return;
    this.hidden = true;
    this.hid.fire();
  }
  dispose(): void {}
  /** The person types `value` and presses Enter. */
  accept(value = this.value): void {
    this.value = value;
    this.changed.fire(value);
    this.accepted.fire();
  }
}

export class FakeQuickPick<T extends { label: string } = { label: string; description?: string; detail?: string; alwaysShow?: boolean }> {
  title: string | undefined;
  placeholder: string | undefined;
  matchOnDescription = false;
  keepScrollPosition = false;
  busy = false;
  value = '';
  items: readonly T[] = [];
  selectedItems: readonly T[] = [];
  shown = false;
  hidden = false;
  disposed = false;
  private readonly changed = new EventEmitter<string>();
  private readonly accepted = new EventEmitter<void>();
  private readonly hid = new EventEmitter<void>();
  readonly onDidChangeValue = this.changed.event;
  readonly onDidAccept = this.accepted.event;
  readonly onDidHide = this.hid.event;
  show(): void {
    this.shown = true;
  }
  hide(): void {
    if (this.hidden) return;
    this.hidden = true;
    this.hid.fire();
  }
  dispose(): void {
    this.disposed = true;
  }
  /** The person types: the value changes (one event per call, as one per key). */
  type(value: string): void {
    this.value = value;
    this.changed.fire(value);
  }
  /** The person accepts the first item whose label holds `label`. */
  accept(label: string): void {
    const item = this.items.find((candidate) => candidate.label.includes(label));
    if (!item) throw new Error(`No item "${label}" among ${JSON.stringify(this.items.map((i) => i.label))}`);
    this.selectedItems = [item];
    this.accepted.fire();
  }
}

/** What a test shows in another display language: `env.language` and that language's bundle (see `inLanguage`). */
let translations: Readonly<Record<string, string>> | undefined;

/**
 * Runs `body` with VS Code's display language `language` and its bundle (e.g. l10n/bundle.l10n.pl.json),
 * then sets English back: as VS Code's l10n.t, a message is looked up by its key (`message/comment`
 * for the form with a comment) and falls back to its English.
 */
export async function inLanguage<T>(language: string, bundle: Readonly<Record<string, string>>, body: () => T | Promise<T>): Promise<T> {
  env.language = language;
  translations = bundle;
  try {
    return await body();
  } finally {
    env.language = 'en';
    translations = undefined;
  }
}

type Details = { message: string; args?: unknown[]; comment?: string | string[] };

function formatted(message: string, args: readonly unknown[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

export const l10n = {
  t: (first: string | Details, ...rest: unknown[]): string => {
    const { message, args = [], comment } = typeof first === 'string' ? { message: first, args: rest } : first;
    const key = comment && comment.length > 0 ? `${message}/${Array.isArray(comment) ? comment.join('') : comment}` : message;
    return formatted(translations?.[key] ?? message, args);
  },
};

export interface ShownMessage {
  level: 'info' | 'warn' | 'error';
  text: string;
  buttons: string[];
  modal: boolean;
  /** A dialog's detail (its second text), where given. */
  detail?: string;
}

interface FakeDocument {
  uri: Uri;
  isDirty: boolean;
  text: string;
  save(): Promise<boolean>;
}

const windowState = new EventEmitter<{ focused: boolean }>();

/** What the modules did, and what the test lets them find. */
export const fake = {
  messages: [] as ShownMessage[],
  /** Answers for the next messages with buttons, in order; undefined is "dismissed". */
  answers: [] as (string | undefined)[],
  executed: [] as { command: string; args: unknown[] }[],
  opened: [] as string[],
  logLines: [] as string[],
  config: new Map<string, unknown>(),
  /** How many times the settings were read (workspace.getConfiguration). */
  configurationReads: 0,
  /** How many calls were made through workspace.fs (each a round trip to the workbench in VS Code). */
  workspaceFsCalls: 0,
  /** While set, file system watchers hear nothing from the disk: as VS Code's outside the workspace may miss a write. */
  watchersDeaf: false,
  documents: [] as FakeDocument[],
  configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  /** Progress notifications started, by title. */
  progress: [] as string[],
  /** Progress notifications whose Cancel is pressed once `when` resolves, by title (each once). */
  cancelProgress: [] as { title: string; when: Promise<unknown> }[],
  /** Quick picks shown; each is dismissed (resolves undefined). */
  picks: [] as ShownPick[],
  /** Answers for the next quick picks (`showQuickPick`), in order: the label of the item picked; undefined is "dismissed". */
  pickAnswers: [] as (string | undefined)[],
  /** Answers for the next save dialogs (`showSaveDialog`), in order: the path picked; undefined is "cancelled". */
  saveAnswers: [] as (string | undefined)[],
  /** Input boxes shown (createInputBox), in order. */
  inputBoxes: [] as FakeInputBox[],
  /** Quick picks made with createQuickPick, in order. */
  quickPicks: [] as FakeQuickPick[],
  /** Status bar messages set. */
  statusBar: [] as string[],
  /** Fire to focus (or leave) this window. */
  windowState,
  /** The workspace's folders (real folders on disk, for the write tools' files). */
  folders: [] as { uri: Uri; name: string; index: number }[],
  reset(): void {
    this.folders.length = 0;
    this.picks.length = 0;
    this.pickAnswers.length = 0;
    this.saveAnswers.length = 0;
    this.quickPicks.length = 0;
    this.inputBoxes.length = 0;
    this.statusBar.length = 0;
    this.messages.length = 0;
    this.answers.length = 0;
    this.executed.length = 0;
    this.opened.length = 0;
    this.logLines.length = 0;
    this.config.clear();
    this.configurationReads = 0;
    this.workspaceFsCalls = 0;
    this.watchersDeaf = false;
    this.documents.length = 0;
    this.progress.length = 0;
    this.cancelProgress.length = 0;
  },
};

function show(level: ShownMessage['level']) {
  return (text: string, ...rest: unknown[]): Promise<string | undefined> => {
    const [first, ...others] = rest;
    const options = typeof first === 'object' && first !== null ? (first as { modal?: boolean; detail?: string }) : undefined;
    const buttons = (options ? others : rest) as string[];
    fake.messages.push({
      level,
      text,
      buttons,
      modal: options?.modal === true,
      ...(options?.detail !== undefined ? { detail: options.detail } : {}),
    });
    return Promise.resolve(buttons.length > 0 && fake.answers.length > 0 ? fake.answers.shift() : undefined);
  };
}

const cancellation = {
  isCancellationRequested: false,
  onCancellationRequested: (_listener: () => unknown) => new Disposable(() => undefined),
};

export const window = {
  showInformationMessage: show('info'),
  showWarningMessage: show('warn'),
  showErrorMessage: show('error'),
  setStatusBarMessage(text: string): Disposable {
    fake.statusBar.push(text);
    return new Disposable(() => undefined);
  },
  async showQuickPick(
    items: ShownPick['items'] | Thenable<ShownPick['items']>,
    options?: ShownPick['options'],
  ): Promise<ShownPick['items'][number] | undefined> {
    const shown = await items;
    fake.picks.push({ items: shown, options });
    const label = fake.pickAnswers.shift();
    return label === undefined ? undefined : shown.find((item) => item.label === label);
  },
  showSaveDialog(): Promise<Uri | undefined> {
    const path = fake.saveAnswers.shift();
    return Promise.resolve(path === undefined ? undefined : Uri.file(path));
  },
  createInputBox: () => new FakeInputBox(),
  createQuickPick(): FakeQuickPick {
    const pick = new FakeQuickPick();
    fake.quickPicks.push(pick);
    return pick;
  },
  withProgress<T>(
    options: { title?: string },
    task: (progress: { report(): void }, token: typeof cancellation) => Thenable<T>,
  ): Thenable<T> {
    const title = options.title ?? '';
    fake.progress.push(title);
    const pressed = fake.cancelProgress.findIndex((cancel) => cancel.title === title);
    if (pressed < 0) return task({ report: () => undefined }, cancellation);
    const { when } = fake.cancelProgress.splice(pressed, 1)[0]!;
    const listeners: (() => unknown)[] = [];
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (listener: () => unknown) => (listeners.push(listener), new Disposable(() => undefined)),
    };
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
  onDidChangeActiveTextEditor: new EventEmitter<unknown>().event,
  /** A status bar item: what it holds, and whether it is shown. */
  createStatusBarItem: () => ({
    text: '',
    tooltip: '' as unknown,
    name: '',
    command: undefined as unknown,
    accessibilityInformation: undefined as unknown,
    visible: false,
    show() {
      this.visible = true;
    },
    hide() {
      this.visible = false;
    },
    dispose: () => undefined,
  }),
  showTextDocument: (document: unknown) => Promise.resolve({ document }),
  /** Fire `fake.windowState` to focus or leave this window. */
  onDidChangeWindowState: (listener: Listener<{ focused: boolean }>) => windowState.event(listener),
};

export const workspace = {
  get textDocuments(): FakeDocument[] {
    return fake.documents;
  },
  getConfiguration(section?: string) {
    fake.configurationReads += 1;
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
  // The files a pattern of any folder and one file name finds (the one form the modules under
  // test use), in the folders on disk.
  findFiles(include: string, _exclude?: string, max = Infinity): Promise<Uri[]> {
    const name = include.replace(/^\*\*\//, '').replace(/\[(.)\]/g, '$1');
    const found: Uri[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const path = posix.join(dir, entry.name);
        if (entry.isDirectory() && entry.name !== 'node_modules') walk(path);
        else if (entry.isFile() && entry.name === name && found.length < max) found.push(Uri.file(path));
      }
    };
    for (const folder of fake.folders) walk(folder.uri.path);
    return Promise.resolve(found);
  },
  openTextDocument: (uri: Uri) =>
    Promise.resolve(
      fake.documents.find((d) => d.uri.toString() === uri.toString()) ?? (uri.scheme === 'file' ? diskDocument(uri) : { uri }),
    ),
  get workspaceFolders() {
    return fake.folders.length ? fake.folders : undefined;
  },
  getWorkspaceFolder: (uri: Uri) =>
    fake.folders.find((f) => uri.scheme === f.uri.scheme && (uri.path === f.uri.path || uri.path.startsWith(`${f.uri.path}/`))),
  asRelativePath(uri: Uri, includeFolder?: boolean): string {
    const folder = workspace.getWorkspaceFolder(uri);
    if (!folder) return uri.path;
    const relative = uri.path.slice(folder.uri.path.length + 1);
    return includeFolder && fake.folders.length > 1 ? `${folder.name}/${relative}` : relative;
  },
  /** As VS Code's, over node's: a symbolic link is followed, and its type is that of its target with SymbolicLink added; errors are FileSystemErrors. */
  fs: {
    stat: (uri: Uri): Promise<{ type: FileType; size: number; mtime: number; ctime: number }> =>
      diskOp(uri, () =>
        onDisk(uri, async () => {
          const [target, link] = await Promise.all([fsPromises.stat(uri.path), fsPromises.lstat(uri.path)]);
          const type = target.isFile() ? FileType.File : target.isDirectory() ? FileType.Directory : FileType.Unknown;
          return {
            type: type | (link.isSymbolicLink() ? FileType.SymbolicLink : 0),
            size: target.size,
            mtime: target.mtimeMs,
            ctime: target.ctimeMs,
          };
        }),
      ),
    // Real files at the URI's path, whatever its scheme; a watcher hears what is written through here (see diskOp).
    readFile: (uri: Uri): Promise<Uint8Array> => diskOp(uri, () => onDisk(uri, () => fsPromises.readFile(uri.path))),
    writeFile: (uri: Uri, content: Uint8Array): Promise<void> =>
      diskOp(uri, () => onDisk(uri, () => fsPromises.writeFile(uri.path, content)), 'change'),
    createDirectory: (uri: Uri): Promise<void> =>
      diskOp(uri, () => onDisk(uri, async () => void (await fsPromises.mkdir(uri.path, { recursive: true })))),
    readDirectory: (uri: Uri): Promise<[string, FileType][]> =>
      onDisk(uri, async () =>
        (await fsPromises.readdir(uri.path, { withFileTypes: true })).map((entry) => [
          entry.name,
          entry.isFile()
            ? FileType.File
            : entry.isDirectory()
              ? FileType.Directory
              : entry.isSymbolicLink()
                ? FileType.File | FileType.SymbolicLink
                : FileType.Unknown,
        ]),
      ),
    delete: (uri: Uri): Promise<void> => diskOp(uri, () => onDisk(uri, () => fsPromises.unlink(uri.path)), 'delete'),
    /** As VS Code's FileService: without `overwrite`, refused when the target is there; with it, the target is deleted first. */
    rename: (from: Uri, to: Uri, options?: { overwrite?: boolean }): Promise<void> =>
      diskOp(
        to,
        () =>
          onDisk(to, async () => {
            const there = await fsPromises.lstat(to.path).then(
              () => true,
              () => false,
            );
            if (there && !options?.overwrite) throw FileSystemError.FileExists(to);
            if (there) await fsPromises.unlink(to.path);
            await fsPromises.rename(from.path, to.path);
          }),
        'change',
      ),
  },
  /**
   * A watcher on a folder, for the patterns `*.ext` and `name` directly in it, as VS Code's: it
   * hears what is written through `workspace.fs` (every window of a test) right after the
   * operation, and what any process writes there (node's watcher: a rename by node's fs too).
   */
  createFileSystemWatcher(pattern: RelativePattern) {
    const [created, changed, deleted] = [new EventEmitter<Uri>(), new EventEmitter<Uri>(), new EventEmitter<Uri>()];
    const watched = { folder: pattern.baseUri.path, suffix: pattern.pattern.replace(/^\*/, ''), changed, deleted };
    diskWatchers.add(watched);
    const matches = (name: string) =>
      pattern.pattern.startsWith('*') ? name.endsWith(pattern.pattern.slice(1)) : name === pattern.pattern;
    const heard = (name: string | null) => {
      if (typeof name !== 'string' || !matches(name) || fake.watchersDeaf) return;
      const uri = Uri.joinPath(pattern.baseUri, name);
      void fsPromises.stat(uri.path).then(
        () => changed.fire(uri),
        () => deleted.fire(uri),
      );
    };
    let watcher: { close(): void } | undefined;
    try {
      watcher = watchFolder(pattern.baseUri.path, (_event, name) => heard(name));
    } catch {
      // A folder that is not there: nothing is heard from other processes (VS Code's would wait for it; the modules make it first).
    }
    return {
      onDidCreate: created.event,
      onDidChange: changed.event,
      onDidDelete: deleted.event,
      dispose: () => {
        diskWatchers.delete(watched);
        watcher?.close();
      },
    };
  },
};

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
        if (posix.dirname(uri.path) === watcher.folder && uri.path.endsWith(watcher.suffix))
          (heard === 'change' ? watcher.changed : watcher.deleted).fire(uri);
      }
    }
    return result;
  } finally {
    diskPending -= 1;
  }
}

/** Resolves once no disk operation has been under way through `workspace.fs` for a few turns of the event loop. */
export async function diskIdle(): Promise<void> {
  for (let quiet = 0; quiet < 3;) {
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
    /** The whole text without a range, as VS Code's document gives it. */
    getText: (range?: Range) =>
      range === undefined
        ? lines.join('\n')
        : lines
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
  language: 'en',
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
