<?php
$allowed = ['api.github.com', 'api.stripe.com'];
$url = $_GET['url'] ?? '';
$parts = parse_url($url);
if (($parts['scheme'] ?? '') !== 'https' || !in_array($parts['host'] ?? '', $allowed, true)) {
    http_response_code(400);
    exit;
}
echo htmlspecialchars(file_get_contents($url));
