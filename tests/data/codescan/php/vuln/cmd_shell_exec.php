<?php
$host = $_GET['host'];
$output = shell_exec("ping -c 4 " . $host);
echo '<pre>' . htmlspecialchars($output) . '</pre>';
