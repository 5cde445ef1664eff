<?php
$user = $_GET['user'];
$q = "SELECT * FROM accounts WHERE user = '$user'";
$res = mysqli_query($db, $q);
if ($res) {
    while ($r = mysqli_fetch_assoc($res) {
        echo $r['balance'];
