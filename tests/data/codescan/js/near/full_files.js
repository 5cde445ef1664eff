// Uploads are stored under random names; downloads look the name up in the database.
const crypto = require('crypto');
const fs = require('fs/promises');
const path = require('path');

const UPLOAD_DIR = path.resolve(process.env.UPLOAD_DIR || './uploads');

async function saveUpload(buffer, originalName) {
  const id = crypto.randomUUID();
  const ext = path.extname(originalName).toLowerCase().replace(/[^.a-z0-9]/g, '');
  await fs.writeFile(path.join(UPLOAD_DIR, id + ext), buffer);
  await db.query('INSERT INTO uploads (id, original_name, ext) VALUES ($1, $2, $3)', [id, originalName, ext]);
  return id;
}

async function sendUpload(req, res) {
  const { rows } = await db.query('SELECT id, ext, original_name FROM uploads WHERE id = $1', [req.params.id]);
  if (!rows.length) return res.sendStatus(404);
  res.download(path.join(UPLOAD_DIR, rows[0].id + rows[0].ext), rows[0].original_name);
}

module.exports = { saveUpload, sendUpload };
