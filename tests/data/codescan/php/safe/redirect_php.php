<?php
$target = $_GET['redirect'] ?? '/';
// Only a path on this site. Browsers treat "/\evil.com" and "/<tab>/evil.com" like "//evil.com".
if (!str_starts_with($target, '/') || str_starts_with($target, '//') || strpbrk($target, "\\\t\r\n") !== false) {
    $target = '/';
}
header('Location: ' . $target);
