<?php
$xml = simplexml_load_file('users.xml');
$user = $_POST['username'];
$pass = $_POST['password'];
$result = $xml->xpath("//user[username='$user' and password='$pass']");
if ($result) { $_SESSION['user'] = $user; }
