<?php
$target = $_GET['redirect'] ?? '/';
if (!str_starts_with($target, '/') || str_starts_with($target, '//')) {
    $target = '/';
}
header('Location: ' . $target);
