  res.cookie('refresh_token', refreshToken, {
    httpOnly: false,
    secure: false,
    sameSite: 'none',
  });
