export function Answer({ markdown }: { markdown: string }) {
  const html = marked.parse(markdown);
  return <div className="answer" dangerouslySetInnerHTML={{ __html: html }} />;
}
