$couponCode = 'SAVE' . mt_rand(1000, 9999);
