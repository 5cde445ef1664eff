export function runLinter(dir: string): string {
  return execSync(`eslint ${dir} --format json`).toString();
}
