// Written by esbuild.mjs from package.json's contributes.languageModelTools: do not edit.

export type ToolName =
  | 'helpdesk_commentOnPost'
  | 'helpdesk_createTask'
  | 'helpdesk_fileBug'
  | 'helpdesk_getPost'
  | 'helpdesk_searchPosts'
  | 'helpdesk_updatePost';
