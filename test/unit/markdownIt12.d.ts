// markdown-it 12, as VS Code 1.96–1.100 bundle it in their Markdown preview (a devDependency by
// alias, for test/unit/views.postDocumentLinks.test.ts): its API is 14's, as far as the test uses it.
declare module 'markdown-it-12' {
  import MarkdownIt from 'markdown-it';
  export default MarkdownIt;
}
