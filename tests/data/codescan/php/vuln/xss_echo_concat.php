<?php
$name = $_GET['name'] ?? 'guest';
echo "<p class=\"greeting\">Hello " . $name . "</p>";
