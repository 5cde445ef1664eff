<?php
$host = $_GET['host'] ?? '';
if (!filter_var($host, FILTER_VALIDATE_IP)) {
    exit('bad host');
}
$output = shell_exec('ping -c 4 ' . escapeshellarg($host));
echo '<pre>' . htmlspecialchars($output) . '</pre>';
