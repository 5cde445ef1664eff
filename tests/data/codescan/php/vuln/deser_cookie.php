<?php
$cart = unserialize($_COOKIE['cart']);
foreach ($cart as $item) {
    echo htmlspecialchars($item['name']);
}
