import * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Views and commands are wired here as they land.
}

export function deactivate(): void {}
