<?php
$file = basename($_GET['file'] ?? '');
$path = realpath('/var/www/uploads/' . $file);
if ($path === false || strpos($path, '/var/www/uploads/') !== 0) {
    http_response_code(404);
    exit;
}
readfile($path);
