export function Confetti() {
  const pieces = Array.from({ length: 40 }, (_, i) => ({ id: i, left: Math.random() * 100, delay: Math.random() }));
  return <div>{pieces.map((p) => <span key={p.id} style={{ left: `${p.left}%` }} />)}</div>;
}
