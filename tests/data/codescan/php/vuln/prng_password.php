    $password = substr(str_shuffle('abcdefghjkmnpqrstuvwxyz23456789'), 0, 10);
    $user->password = Hash::make($password);
