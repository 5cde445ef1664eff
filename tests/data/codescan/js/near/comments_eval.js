// Never call eval(req.query.x): JSON.parse only accepts data.
function parseConfig(text) {
  return JSON.parse(text);
}
/* child_process.exec(`rm -rf ${dir}`) was replaced by fs.rm below */
async function clean(dir) {
  await fs.promises.rm(dir, { recursive: true, force: true });
}
