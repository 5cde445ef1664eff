'use strict';
// Authentication routes: bcrypt hashes, tokens from crypto, parameterised queries only.
const express = require('express');
const bcrypt = require('bcrypt');
const crypto = require('crypto');
const jwt = require('jsonwebtoken');
const { pool } = require('../db');

const router = express.Router();
const PASSWORD_MIN_LENGTH = 12;
const SALT_ROUNDS = 12;
const JWT_SECRET = process.env.JWT_SECRET;

router.post('/register', async (req, res) => {
  const { email, password } = req.body;
  if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH) {
    return res.status(400).json({ error: 'password too short' });
  }
  const hash = await bcrypt.hash(password, SALT_ROUNDS);
  await pool.query('INSERT INTO users (email, password_hash) VALUES ($1, $2)', [email, hash]);
  res.status(201).json({ ok: true });
});

router.post('/login', async (req, res) => {
  const { email, password } = req.body;
  const { rows } = await pool.query('SELECT id, password_hash FROM users WHERE email = $1', [email]);
  if (!rows.length || !(await bcrypt.compare(password, rows[0].password_hash))) {
    return res.status(401).json({ error: 'invalid email or password' });
  }
  const token = jwt.sign({ sub: rows[0].id }, JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' });
  res.cookie('token', token, { httpOnly: true, secure: true, sameSite: 'strict' });
  res.json({ ok: true });
});

router.post('/password-reset', async (req, res) => {
  const resetToken = crypto.randomBytes(32).toString('hex');
  const tokenHash = crypto.createHash('sha256').update(resetToken).digest('hex');
  await pool.query('UPDATE users SET reset_token_hash = $1 WHERE email = $2', [tokenHash, req.body.email]);
  await mailer.send(req.body.email, `https://example.com/reset?token=${resetToken}`);
  res.sendStatus(204);
});

router.post('/password-reset/confirm', async (req, res) => {
  const given = crypto.createHash('sha256').update(String(req.body.token)).digest();
  const { rows } = await pool.query('SELECT id, reset_token_hash FROM users WHERE email = $1', [req.body.email]);
  const stored = rows.length ? Buffer.from(rows[0].reset_token_hash, 'hex') : Buffer.alloc(32);
  if (!rows.length || !crypto.timingSafeEqual(given, stored)) return res.sendStatus(403);
  const hash = await bcrypt.hash(req.body.password, SALT_ROUNDS);
  await pool.query('UPDATE users SET password_hash = $1, reset_token_hash = NULL WHERE id = $2', [hash, rows[0].id]);
  res.sendStatus(204);
});

module.exports = router;
