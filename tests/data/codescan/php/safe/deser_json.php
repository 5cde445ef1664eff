<?php
$cart = json_decode($_COOKIE['cart'] ?? '[]', true);
$legacy = unserialize($blob, ['allowed_classes' => false]);
