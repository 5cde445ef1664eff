router.post('/password/reset', async (req, res) => {
  const user = await User.findOne({ resetToken: req.body.token, resetExpires: { $gt: Date.now() } });
  if (!user) return res.status(400).json({ error: 'invalid or expired token' });
  user.password = await bcrypt.hash(req.body.password, 12);
  user.resetToken = undefined;
  await user.save();
  res.sendStatus(204);
});
