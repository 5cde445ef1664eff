const AdmZip = require('adm-zip');

function unpack(zipPath, dest) {
  const zip = new AdmZip(zipPath);
  for (const entry of zip.getEntries()) {
    const out = path.join(dest, entry.entryName);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, entry.getData());
  }
}
