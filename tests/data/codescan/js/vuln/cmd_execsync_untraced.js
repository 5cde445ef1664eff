function gitLog(branch) {
  return execSync('git log --oneline ' + branch).toString();
}
