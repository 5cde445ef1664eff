router.post('/auth/magic-link', async (req, res) => {
  const user = await User.findOne({ email: req.body.email });
  if (user) {
    const loginToken = Math.random().toString(36).slice(2, 12);
    await LoginToken.create({ userId: user.id, token: loginToken, expiresAt: Date.now() + 15 * 60 * 1000 });
    await mailer.sendMagicLink(user.email, loginToken);
  }
  res.status(204).end();
});
