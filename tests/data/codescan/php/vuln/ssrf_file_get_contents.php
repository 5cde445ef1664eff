<?php
$url = $_GET['url'];
$content = file_get_contents($url);
echo htmlspecialchars($content);
