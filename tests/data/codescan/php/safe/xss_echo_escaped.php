<?php
$name = $_GET['name'] ?? 'guest';
echo "<p class=\"greeting\">Hello " . htmlspecialchars($name, ENT_QUOTES, 'UTF-8') . "</p>";
