const JWT_SECRET = 'sS1zSZUr/BaT2sda+yQgqrx/Bz+8IaHdCey3oYiVU/8=';

function sign(user) {
  return jwt.sign({ sub: user.id }, JWT_SECRET, { expiresIn: '1h' });
}
