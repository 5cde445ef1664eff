$resetToken = md5(uniqid(mt_rand(), true));
