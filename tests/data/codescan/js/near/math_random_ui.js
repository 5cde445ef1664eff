const colors = ['#e6194b', '#3cb44b', '#ffe119'];
export function randomColor() {
  return colors[Math.floor(Math.random() * colors.length)];
}
export const retryDelay = (n) => 100 * 2 ** n + Math.random() * 50;
