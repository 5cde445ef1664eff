<?php
$payload = file_get_contents('php://input');
$signature = $_SERVER['HTTP_X_SIGNATURE'] ?? '';
$expected = hash_hmac('sha256', $payload, getenv('WEBHOOK_SECRET'));
if ($signature !== $expected) {
    http_response_code(401);
    exit;
}
