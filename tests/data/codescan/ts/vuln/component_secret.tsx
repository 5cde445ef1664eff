const client = new OpenAI({ apiKey: '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', dangerouslyAllowBrowser: true });

export function Chat() {
  const [reply, setReply] = useState('');
  return <div>{reply}</div>;
}
