<?php
$token = bin2hex(random_bytes(32));
$pin = random_int(100000, 999999);
$password = Str::password(16);
