export function Answer({ text }: { text: string }) {
  return <div className="answer">{text}</div>;
}
