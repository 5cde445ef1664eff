<?php
$file = $_GET['file'];
header('Content-Type: application/octet-stream');
readfile('/var/www/uploads/' . $file);
