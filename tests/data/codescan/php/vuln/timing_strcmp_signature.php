<?php
$expected = hash_hmac('sha256', $payload, $secret);
if (strcmp($expected, $_SERVER['HTTP_X_SIGNATURE']) !== 0) {
    http_response_code(401);
    exit;
}
